// The secrets `webhook listen` verifies with: given ones win; the account's is read from the API
// and read again (one read at a time, at most once per interval) after `webhook set` rotates it.
import { describe, expect, it } from 'vitest';
import { givenSecrets, secretFromApi } from '../../src/webhooks/secrets.js';

/** A GET /webhook stand-in: answers what `secret` holds when the test releases the read. */
function api(initial: string | null | undefined) {
  let secret = initial;
  let reads = 0;
  const waiting: (() => void)[] = [];
  let hold = false;
  return {
    set: (s: string | null | undefined) => (secret = s),
    reads: () => reads,
    holdReads: (on: boolean) => (hold = on),
    release: () => {
      for (const go of waiting.splice(0)) go();
    },
    read: async () => {
      reads += 1;
      if (hold) await new Promise<void>((go) => waiting.push(go));
      return secret;
    },
  };
}

function messages() {
  const said: string[] = [];
  return { said, ctx: { notice: (m: string) => said.push(`notice: ${m}`), warn: (m: string) => said.push(`warn: ${m}`) } };
}

describe('givenSecrets', () => {
  it('--secret wins over PROXYCTL_WEBHOOK_SECRET; an empty variable counts as unset', () => {
    expect(givenSecrets(['a', 'b'], { PROXYCTL_WEBHOOK_SECRET: 'env' })).toEqual(['a', 'b']);
    expect(givenSecrets([], { PROXYCTL_WEBHOOK_SECRET: 'env' })).toEqual(['env']);
    expect(givenSecrets([], { PROXYCTL_WEBHOOK_SECRET: '' })).toEqual([]);
    expect(givenSecrets([], {})).toEqual([]);
  });
});

describe('secretFromApi', () => {
  it('reads the secret once at start; a rotated one is read on refresh and announced', async () => {
    const server = api('whsec_1');
    const { said, ctx } = messages();
    let now = 10_000;
    const source = await secretFromApi(ctx, { read: server.read, clock: () => now });
    expect(source.current()).toEqual(['whsec_1']);
    expect(server.reads()).toBe(1);

    server.set('whsec_2');
    expect(await source.refresh!()).toBe(true);
    expect(source.current()).toEqual(['whsec_2']);
    expect(said).toEqual(['notice: Read the new webhook secret from the API.']);

    now += 2_000;
    expect(await source.refresh!()).toBe(false); // unchanged: no notice
    expect(server.reads()).toBe(3);
    expect(said).toHaveLength(1);
  });

  it('within the interval a refresh reads nothing and answers false', async () => {
    const server = api('whsec_1');
    let now = 10_000;
    const source = await secretFromApi(messages().ctx, { read: server.read, clock: () => now, intervalMs: 2_000 });
    await source.refresh!();
    server.set('whsec_2');
    now += 1_999;
    expect(await source.refresh!()).toBe(false);
    expect(server.reads()).toBe(2);
    expect(source.current()).toEqual(['whsec_1']);
    now += 1;
    expect(await source.refresh!()).toBe(true);
    expect(server.reads()).toBe(3);
  });

  it('refreshes asked for while one read is on its way share that read', async () => {
    const server = api('whsec_1');
    const source = await secretFromApi(messages().ctx, { read: server.read, clock: () => 10_000 });
    server.set('whsec_2');
    server.holdReads(true);
    const both = [source.refresh!(), source.refresh!()];
    server.release();
    expect(await Promise.all(both)).toEqual([true, true]);
    expect(server.reads()).toBe(2);
  });

  it('no secret yet: a warning, no secrets to verify with, and the first one set is picked up', async () => {
    const server = api(null);
    const { said, ctx } = messages();
    const source = await secretFromApi(ctx, { read: server.read, clock: () => 10_000 });
    expect(source.current()).toEqual([]);
    expect(said).toEqual([
      'warn: the account has no webhook secret yet; it is read again when the first delivery arrives (after proxyctl webhook set)',
    ]);
    server.set('');
    expect(await source.refresh!()).toBe(false); // '' is no secret either
    expect(source.current()).toEqual([]);
  });
});
