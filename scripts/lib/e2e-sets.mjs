// The end-to-end sets `npm test` runs on each Node (scripts/test.mjs, scripts/test-node-versions.mjs).
// The whole suite runs on this machine's Node less ON_24: those files run on Node 24, what a new
// user installs; CORE, what a Node release is likeliest to change under the CLI (the binary's start
// and version check, its HTTP client against the sandbox, pipes, signals), runs on every Node.

/** Whole-CLI flows and every test file that spawns the binary for a purchase, a webhook or a pipe. */
export const ON_24 = [
  'test/e2e/',
  'test/units/lifecycle.e2e.test.ts',
  'test/units/purchases.e2e.test.ts',
  'test/webhooks/listen.e2e.test.ts',
  'test/webhooks/verify.e2e.test.ts',
  'test/package/',
];

export const CORE = [
  'test/e2e/cli.test.ts',
  'test/e2e/node-version.test.ts',
  'test/e2e/client.test.ts',
  'test/e2e/pipes.test.ts',
  'test/e2e/signals.test.ts',
];
