// Purchases whose request is on the wire, and units bought so far: what a second Ctrl-C (which
// exits without waiting) must still tell the user. The first Ctrl-C waits for these requests,
// so only the second one leaves their outcome unknown; their idempotency keys settle it on a re-run.

export interface PendingPurchase {
  /** e.g. "purchase #3" */
  what: string;
  idempotencyKey: string;
  /** The batch key to re-run with (`--idempotency-key`), when there is one. */
  resumeKey?: string | undefined;
}

export class InFlightRegistry {
  private readonly pending = new Set<PendingPurchase>();
  private readonly done: string[] = [];
  private readonly resumeKeys = new Set<string>();
  /** Other work a second interrupt leaves unfinished (e.g. `webhook listen --exec` commands). */
  private readonly tasks = new Set<{ what: string }>();
  /** Items of bulk work (an extend, a release) whose request is on the wire. */
  private readonly items = new Set<{ what: string }>();

  /** Registers one bulk item as in flight until the returned function is called. */
  item(what: string): () => void {
    const entry = { what };
    this.items.add(entry);
    return () => this.items.delete(entry);
  }

  /** Runs `send` with `p` registered as in flight until it settles either way. */
  async during<T>(p: PendingPurchase, send: () => Promise<T>): Promise<T> {
    const entry = { ...p };
    this.pending.add(entry);
    if (p.resumeKey !== undefined) this.resumeKeys.add(p.resumeKey);
    try {
      return await send();
    } finally {
      this.pending.delete(entry);
    }
  }

  /** A unit that was bought (its ref), named if the process has to exit before printing it. */
  bought(ref: string, resumeKey?: string): void {
    this.done.push(ref);
    if (resumeKey !== undefined) this.resumeKeys.add(resumeKey);
  }

  /** Registers running work by name until the returned function is called. */
  task(what: string): () => void {
    const entry = { what };
    this.tasks.add(entry);
    return () => this.tasks.delete(entry);
  }

  inFlight(): PendingPurchase[] {
    return [...this.pending];
  }

  /** What the first interrupt waits for, or undefined when nothing is in flight. */
  waitingNote(signal: string): string | undefined {
    const n = this.pending.size;
    if (n > 0)
      return `${signal}: letting ${n} purchase${n === 1 ? '' : 's'} in flight finish; interrupt again to exit at once (their outcome would then be unknown)\n`;
    const items = [...this.items].map((i) => i.what);
    if (items.length === 0) return undefined;
    return `${signal}: starting no more; letting ${items.length} request${items.length === 1 ? '' : 's'} in flight finish (${items.join(', ')}); interrupt again to exit at once\n`;
  }

  /** What a second interrupt leaves behind: units bought but not printed, and unknown outcomes. */
  abandonNote(): string {
    const lines = ['interrupted again: exiting without waiting'];
    if (this.done.length) lines.push(`bought before the interrupt (not printed): ${this.done.join(', ')}`);
    const pending = this.inFlight();
    if (pending.length) {
      lines.push(`outcome unknown for ${pending.length} purchase${pending.length === 1 ? '' : 's'} (may or may not have gone through):`);
      for (const p of pending) lines.push(`  ${p.what}: idempotency key ${p.idempotencyKey}`);
    }
    if (this.done.length || pending.length)
      for (const k of this.resumeKeys)
        lines.push(`re-run the same command with --idempotency-key ${k} to settle them and print every unit without paying twice`);
    if (this.tasks.size) {
      lines.push(`not finished (${this.tasks.size}), no longer waited for:`);
      for (const t of this.tasks) lines.push(`  ${t.what}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

/** The process-wide registry: src/cli.ts reads it on a second signal. */
export const inFlight = new InFlightRegistry();
