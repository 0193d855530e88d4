// `units check [REF...] [--all] [--pool ID] [--from-file FILE]`: a request through every unit to a
// target, with the unit's own protocol and credentials. Everything that can be wrong with the input
// (flags, the file's lines, no target) is exit 2 before any connection; then the checks run with
// bounded concurrency and a progress bar, and the results print as a table or for scripts.
// Exit 0 when every check passed, 10 when any failed, 130 after Ctrl-C (what finished is printed).
import { readFile } from 'node:fs/promises';
import { emit, showList, type Result } from '../../kit/action.js';
import type { Input } from './check.command.js';
import type { Context } from '../../context/index.js';
import { ExitCode, UsageError } from '../../errors.js';
import type { View } from '../../output/index.js';
import { printCheckSummary, progressRenderer } from '../../output/progress.js';
import { runBulk } from '../../units/bulk.js';
import {
  CheckFailed,
  candidateFromLine,
  candidateFromUnit,
  checkCandidate,
  failedResult,
  summarise,
  type Candidate,
  type CheckResult,
} from '../../units/check.js';
import { parseConnLines } from '../../units/conn-lines.js';
import { collectSelection, nothingSelected, selectionQuery, type SelectionCriteria } from '../../units/select.js';
import { parseCustomer } from '../../ledger/customer.js';
import { normalisePoolIdFlag, poolMiss } from '../../units/catalogue-ids.js';
import { parseProtocol, parseRefs } from '../../units/validate.js';
import { ApiError, InterruptedError } from '../../errors.js';
import { parseInteger } from '../../kit/options.js';
import { resolveCheckTarget } from '../../context/check-target.js';
import { trustedExtras } from '../../units/check-target.js';
import { remember } from '../../kit/remember.js';
import { userAgent } from '../../version.js';
import { allUnits, getUnit } from '../../api/endpoints.js';

/** Per check, when --timeout is not given: a dead proxy should not hold a lane for the API's 30 s. */
const DEFAULT_CHECK_TIMEOUT_MS = 10_000;
const MAX_CONCURRENCY = 256;

/** Where the units come from: refs, the API's list, or a file's lines. */
type Source = { kind: 'refs'; refs: string[] } | { kind: 'list'; criteria: SelectionCriteria } | { kind: 'file'; candidates: Candidate[] };

const label = (r: Pick<CheckResult, 'ref' | 'line'>) => r.ref ?? `line ${r.line}`;

const checkView: View<CheckResult> = {
  columns: [
    { header: 'unit', value: label, format: (r, p) => p.bold(label(r)), priority: 0 },
    { header: 'ip', value: (r) => r.ip, priority: 2 },
    { header: 'port', value: (r) => r.port, priority: 2 },
    { header: 'protocol', value: (r) => r.protocol, priority: 3 },
    { header: 'ok', value: (r) => (r.ok ? 'ok' : 'FAIL'), format: (r, p) => (r.ok ? p.green('ok') : p.red('FAIL')), priority: 0 },
    { header: 'status', value: (r) => r.status, priority: 4 },
    { header: 'ms', value: (r) => r.latencyMs, priority: 1 },
    { header: 'exit ip', value: (r) => r.exitIp, priority: 3 },
    { header: 'error', value: (r) => r.error, format: (r, p) => (r.error ? p.red(r.error) : ''), priority: 0 },
  ],
  fields: ['ref', 'line', 'ip', 'port', 'protocol', 'ok', 'status', 'latencyMs', 'exitIp', 'error', 'message'],
};

async function readSource(args: string[], f: Input['flags']): Promise<Source> {
  const listed = f.all || f.pool !== undefined || f.customer !== undefined;
  const given = [args.length > 0 && 'REF', listed && '--all/--pool/--customer', f.fromFile !== undefined && '--from-file'];
  const used = given.filter((g): g is string => typeof g === 'string');
  if (used.length === 0) {
    throw new UsageError('say which units to check: REF..., --all, --pool ID, --customer NAME or --from-file FILE');
  }
  if (used.length > 1) throw new UsageError(`check one source at a time, not ${used.join(' and ')}`);
  if (f.protocol !== undefined && f.fromFile === undefined) {
    throw new UsageError('--protocol applies to --from-file lines; units from the API carry their own');
  }
  if (f.fromFile !== undefined) {
    let text: string;
    try {
      text = await readFile(f.fromFile, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --from-file ${f.fromFile}: ${(err as Error).message}`);
    }
    const protocol = f.protocol === undefined ? undefined : parseProtocol(f.protocol);
    const lines = parseConnLines(text, protocol);
    if (lines.length === 0) throw new UsageError(`--from-file ${f.fromFile} has no connection lines`);
    return { kind: 'file', candidates: lines.map(candidateFromLine) };
  }
  if (args.length > 0) return { kind: 'refs', refs: parseRefs(args) };
  return {
    kind: 'list',
    criteria: { poolId: normalisePoolIdFlag(f.pool), customer: f.customer === undefined ? undefined : parseCustomer(f.customer) },
  };
}

/** --timeout when given (it is a global option), else the check's own default. */
function checkTimeoutMs(input: Input): number {
  const raw = (input.command.optsWithGlobals() as { timeout?: unknown }).timeout;
  return raw === undefined ? DEFAULT_CHECK_TIMEOUT_MS : input.ctx.globals.timeoutMs;
}

export default async function handler(input: Input): Promise<Result> {
  const {
    args: [refs],
    flags,
    ctx,
  } = input;
  const concurrency = parseInteger(flags.concurrency, '--concurrency', 1, MAX_CONCURRENCY);
  const timeoutMs = checkTimeoutMs(input);
  const extraCas = flags.caCert === undefined ? undefined : await trustedExtras(flags.caCert, ctx.io.env);
  const source = await readSource(refs, flags);
  // Credentials are needed for anything but a file: missing ones stop the run here, not per unit,
  // and are said before a missing target (the fix for that is pointless without them).
  if (source.kind !== 'file') await ctx.api();
  const target = await resolveCheckTarget(ctx, flags.target);

  // The items: a file's lines and the API's list are known up front; refs are read as they are checked.
  let items: (Candidate | string)[];
  if (source.kind === 'file') items = source.candidates;
  else if (source.kind === 'refs') items = source.refs;
  else {
    const api = await ctx.api();
    const { criteria } = source;
    // The exact customer tag: --customer acme never checks customer=acme-corp's units.
    const units = await collectSelection(allUnits(api, selectionQuery(criteria)), criteria, ctx.now().getTime());
    items = [...units.values()].map(candidateFromUnit);
    if (items.length === 0) {
      ctx.notice(
        criteria.customer !== undefined
          ? nothingSelected(criteria, 'checked')
          : criteria.poolId
            ? `No active units in pool ${criteria.poolId}.`
            : 'No active units.',
      );
      // A pool the catalogue does not hold is a typo worth a warning, as in `units list --pool`.
      const miss = criteria.poolId ? await poolMiss(api, criteria.poolId) : undefined;
      if (miss) ctx.warn(miss.message);
      return ExitCode.ok;
    }
  }

  const targetTls = { verify: !ctx.globals.insecure, extraCas };
  // The global --insecure also allows plain http to the API: said, so it never turns the target's
  // certificate check off unnoticed.
  if (!targetTls.verify && target.protocol === 'https:') ctx.warn(`--insecure: the certificate of ${target.host} is not checked`);
  const opts = { target, timeoutMs, signal: ctx.signal, userAgent: userAgent(), targetTls };
  const report = await runBulk(
    ctx,
    items,
    {
      verb: 'checked',
      concurrency,
      label: (it) => (typeof it === 'string' ? it : label(it)),
      describe: (r) => `${label(r as CheckResult)} ok (${(r as CheckResult).latencyMs} ms)`,
      onEvent: progressRenderer(ctx),
    },
    async (it) => {
      const candidate = typeof it === 'string' ? await unitByRef(ctx, it) : it;
      const result = 'ok' in candidate ? candidate : await checkCandidate(candidate, opts);
      if (!result.ok) throw new CheckFailed(result);
      return result;
    },
  );
  const results = report.outcomes.map((o) => {
    if (o.ok) return o.value;
    if (o.error instanceof CheckFailed) return o.error.result;
    throw o.error;
  });
  await emit(ctx, showList(results, checkView));
  await remember(ctx, {
    add: { units: results.filter((r) => r.ref !== null && r.error !== 'not_found').map((r) => r.ref) },
    remove: { units: results.filter((r) => r.error === 'not_found').map((r) => r.ref) },
  });
  const summary = summarise(results, report.notStarted);
  printCheckSummary(ctx, summary);
  if (report.interrupted) return ExitCode.interrupted;
  return summary.failed > 0 ? ExitCode.partialFailure : ExitCode.ok;
}

/**
 * The unit, or that row's failed result: a ref the API does not know, or a unit it could not read
 * (a 5xx past the retries, a timeout) is that row's failure, not the run's, and the checks already
 * done are still printed. Ctrl-C is the run's: the row is not started.
 */
async function unitByRef(ctx: Context, ref: string): Promise<Candidate | CheckResult> {
  const api = await ctx.api();
  try {
    return candidateFromUnit(await getUnit(api, ref));
  } catch (err) {
    if (err instanceof InterruptedError || ctx.signal.aborted) throw err;
    if (err instanceof ApiError && err.status === 404) return failedResult({ ref, line: null }, 'not_found', `the API has no unit ${ref}`);
    return failedResult({ ref, line: null }, 'api_error', err instanceof Error ? err.message : String(err));
  }
}
