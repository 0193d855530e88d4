#!/usr/bin/env node
// The whole tool lives in the bundle built by `npm run build` (run by `npm ci` through `prepare`).
// This file is CommonJS (bin/package.json): Node starts a CommonJS entry a few ms sooner, and a
// script calling `proxyctl --version` pays nothing more than Node itself (bench/RESULTS.md).
const { readFileSync } = require('node:fs');
const module_ = require('node:module');

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered without loading the CLI: commander and the command tree cost more than Node's start.
  process.stdout.write(`${JSON.parse(readFileSync(`${__dirname}/../package.json`, 'utf8')).version}\n`);
} else {
  start();
}

async function start() {
  // Node 22.1+: V8 code cache for the bundle and its dependencies in the user's cache dir, so
  // later runs skip compiling JavaScript. Node 20 has no code cache for ES modules; there this is
  // skipped. Never fails the command: an unwritable dir only means no cache.
  if (typeof module_.enableCompileCache === 'function' && !process.env.NODE_COMPILE_CACHE) {
    try {
      const { default: envPaths } = await import('env-paths');
      module_.enableCompileCache(envPaths('proxyctl', { suffix: '' }).cache);
    } catch {
      // no cache this time
    }
  }
  const { run } = await import('../dist/cli.js');
  run();
}
