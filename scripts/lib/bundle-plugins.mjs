// The build's esbuild plugins (scripts/build.mjs), shared with bench/cli.mjs, which bundles an
// undici-only script the way the CLI bundles undici (its baseline for a one-request command).
import { readFileSync } from 'node:fs';
import { dirname, sep } from 'node:path';

/**
 * undici's client requires its HTTP/2 client at load, and with it node:http2 (time and memory a plain request never needs),
 * though it is used only when TLS negotiates h2, which needs `allowH2` (never set). In the bundle
 * that require gets a stand-in which loads the real one (bundled too) on its first call.
 */
export const lazyUndiciH2 = {
  name: 'lazy-undici-h2',
  setup(b) {
    const client = `${sep}undici${sep}lib${sep}dispatcher${sep}client.js`;
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (a) =>
      a.importer.endsWith(client)
        ? { path: 'undici/lib/dispatcher/client-h2.js', namespace: 'lazy', pluginData: dirname(a.importer) }
        : undefined,
    );
    // The stand-in's require('./client-h2.js') is resolved as usual (its importer is not client.js).
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (a) => ({
      contents: `let connectH2;
module.exports = function lazyConnectH2(...args) {
  connectH2 ??= require('./client-h2.js');
  return connectH2.apply(this, args);
};`,
      loader: 'js',
      resolveDir: a.pluginData,
    }));
  },
};

/**
 * commander requires node:child_process at load, for executable subcommands (`git-style` commands
 * run as separate programs), which proxyctl never declares; loading it costs every command's start
 * (bench/RESULTS.md). In the bundle that require becomes a getter which loads it on first use.
 */
export const lazyCommanderChildProcess = {
  name: 'lazy-commander-child-process',
  setup(b) {
    const command = `${sep}commander${sep}lib${sep}command.js`;
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (a) => {
      if (!a.path.endsWith(command)) return undefined;
      const source = readFileSync(a.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`${a.path}: commander no longer requires node:child_process as expected`);
      return {
        contents: source.replace(eager, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"),
        loader: 'js',
      };
    });
  },
};

/**
 * The CLI's choice for llhttp, undici's HTTP parser (WebAssembly): V8 compiles it quickly (Liftoff)
 * and then again optimised (TurboFan) in the background once a function has run enough, which for
 * a process making a few requests costs peak memory and CPU it never pays back (bench/RESULTS.md).
 * A tier-up budget only a very long run spends keeps it on Liftoff. The flag is set just before
 * undici compiles llhttp (its first connection), not at start: setting any V8 flag changes the
 * flags' hash, and V8 then refuses the code cache of every Node module loaded after it, so each of
 * node:https, node:tls, node:net … compiled from source would cost a one-request command ~15 ms
 * (bench/RESULTS.md, round 8). By the first connection the modules a request needs are loaded. Only
 * the CLI's bundle gets this (the SDK changes no flag of the process that imports it).
 */
export const llhttpTieringBudget = {
  name: 'llhttp-tiering-budget',
  setup(b) {
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/ }, (a) => {
      const source = readFileSync(a.path, 'utf8');
      const start = 'function lazyllhttp () {';
      if (!source.includes(start)) throw new Error(`${a.path}: undici no longer compiles llhttp in lazyllhttp() as expected`);
      return {
        contents: source.replace(start, `${start}\n  require('node:v8').setFlagsFromString('--wasm-tiering-budget=1000000000')`),
        loader: 'js',
      };
    });
  },
};
