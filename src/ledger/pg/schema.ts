// The shared ledger's schema, one migration per version, applied in order by db.ts under an advisory
// lock and recorded in proxyctl_schema. A released migration is never edited: a change is a new one.
//
// - proxyctl_debits: one row per debit (account, id). The lines that name a debit are merged as
//   they arrive (journal.ts's mergeDebit, in SQL): `run` holds the fields of the lines the paying
//   runs wrote (cli, sdk, mcp), `seen` those of webhook lines, each keeping the first value of a
//   field; the debit is seen || run (the run's word wins). `seq` keeps the order of first entry.
//   price, at_ms and hold are read from the merged debit, for budgets summed in the database.
// - proxyctl_tags: the customer tag lines (units modify), each once (`line` is unique per account).
// - proxyctl_holds: budget holds (budget.ts's records); lock1/lock2 name the advisory lock the
//   holding run's session keeps, lease_until the lease it renews: alive while both hold.
// - proxyctl_records: the purchase records (which unit each item of a batch bought; a key's use).
// - proxyctl_settings: the team's money settings (budgets, policy, customer prices) by name.
export const MIGRATIONS: readonly string[] = [
  `
CREATE TABLE proxyctl_debits (
  account text NOT NULL,
  id text NOT NULL,
  seq bigserial NOT NULL,
  run jsonb,
  seen jsonb,
  price double precision GENERATED ALWAYS AS (((coalesce(seen, '{}'::jsonb) || coalesce(run, '{}'::jsonb)) ->> 'priceUsd')::double precision) STORED,
  at_ms double precision GENERATED ALWAYS AS (((coalesce(seen, '{}'::jsonb) || coalesce(run, '{}'::jsonb)) ->> 'atMs')::double precision) STORED,
  hold text GENERATED ALWAYS AS ((coalesce(seen, '{}'::jsonb) || coalesce(run, '{}'::jsonb)) ->> 'hold') STORED,
  PRIMARY KEY (account, id)
);
CREATE INDEX proxyctl_debits_order ON proxyctl_debits (account, seq);
CREATE INDEX proxyctl_debits_at ON proxyctl_debits (account, at_ms);
CREATE INDEX proxyctl_debits_hold ON proxyctl_debits (account, hold) WHERE hold IS NOT NULL;
CREATE TABLE proxyctl_tags (
  seq bigserial PRIMARY KEY,
  account text NOT NULL,
  line jsonb NOT NULL,
  UNIQUE (account, line)
);
CREATE TABLE proxyctl_holds (
  id text PRIMARY KEY,
  account text NOT NULL,
  rec jsonb NOT NULL,
  lock1 integer NOT NULL,
  lock2 integer NOT NULL,
  lease_until timestamptz NOT NULL
);
CREATE INDEX proxyctl_holds_account ON proxyctl_holds (account);
CREATE TABLE proxyctl_records (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  at_ms double precision NOT NULL
);
CREATE TABLE proxyctl_settings (
  account text NOT NULL,
  name text NOT NULL,
  value jsonb NOT NULL,
  PRIMARY KEY (account, name)
);
`,
];
