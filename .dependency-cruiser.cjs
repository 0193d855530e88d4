// The layer rules of docs/architecture.md, checked by `npm run lint:deps` (part of `npm test`).
// Layers, top to bottom: cli → main → commands and mcp → kit (the command kit) → context → units/webhooks/ledger/account → api/config/output → net →
// leaf (errors, io, version, in-flight, globals, activity); src/sdk.ts is a second entry beside cli/main. A module may import its own layer or any layer
// below it, never one above; src/sandbox stands alone. Type-only and dynamic imports count too. The front doors (the commands, src/mcp,
// the agent server, and src/sdk.ts) call the same domain functions and never import each other's files; only the mcp command loads the server.
const LEAF = '^src/(errors|io|version|in-flight|globals|activity)[.]ts$';
const upward = (name, from, forbidden) => ({
  name,
  severity: 'error',
  comment: `${from} may not import from a higher layer (${forbidden}); see docs/architecture.md`,
  from: { path: from },
  to: { path: forbidden },
});

module.exports = {
  forbidden: [
    upward('leaf-imports-upward', LEAF, '^src/(?!(errors|io|version|in-flight|globals|activity)[.]ts$)'),
    upward(
      'lower-imports-upward',
      '^src/(api|config|output)/',
      '^src/(units|webhooks|ledger|account|context|kit|commands|mcp|sandbox)/|^src/(main|cli)[.]ts$',
    ),
    upward(
      'domain-imports-upward',
      '^src/(units|webhooks|ledger|account)/',
      '^src/(context|kit|commands|mcp|sandbox)/|^src/(main|cli)[.]ts$',
    ),
    upward('context-imports-upward', '^src/context/', '^src/(kit|commands|mcp|sandbox)/|^src/(main|cli)[.]ts$'),
    upward('kit-imports-commands', '^src/kit/', '^src/(commands|mcp|sandbox)/|^src/(main|cli)[.]ts$'),
    upward('commands-import-upward', '^src/commands/', '^src/(main|cli)[.]ts$'),
    upward('mcp-imports-upward', '^src/mcp/', '^src/sandbox/|^src/(main|cli)[.]ts$'),
    {
      name: 'only-the-mcp-command-loads-the-server',
      severity: 'error',
      comment: 'src/mcp is the agent server: the mcp command starts it; no other command (nor the verbs its tools call) imports it',
      from: { path: '^src/commands/', pathNot: '^src/commands/mcp/' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'front-doors-stay-apart',
      severity: 'error',
      comment:
        'the agent server (src/mcp) and the SDK (src/sdk.ts) call the domain (units, ledger, webhooks, account) and the endpoints (api/endpoints.ts), never a command handler: a use case the CLI has moves below the commands first',
      from: { path: '^src/mcp/|^src/sdk[.]ts$' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'mcp-sdk-only-in-the-server',
      severity: 'error',
      comment: 'the MCP SDK and zod load only when proxyctl mcp runs: only src/mcp imports them',
      from: { pathNot: '^src/mcp/' },
      to: { path: '(^|/)node_modules/(@modelcontextprotocol/sdk|zod)/' },
    },
    upward('main-imports-cli', '^src/main[.]ts$', '^src/cli[.]ts$'),
    {
      name: 'sdk-is-an-entry',
      severity: 'error',
      comment: "src/sdk.ts is the package's import entry (dist/sdk.js); nothing in src imports it",
      from: { pathNot: '^src/sdk[.]ts$' },
      to: { path: '^src/sdk[.]ts$' },
    },
    {
      name: 'sdk-stays-headless',
      severity: 'error',
      comment:
        'src/sdk.ts wraps the API client and the domain (units/) for code: no CLI wiring (context, commands, main, cli), no config dir, no printing, no sandbox',
      from: { path: '^src/sdk[.]ts$' },
      to: { path: '^src/(context|commands|mcp|config|output|sandbox)/|^src/(main|cli)[.]ts$' },
    },
    {
      name: 'sandbox-stands-alone',
      severity: 'error',
      comment: 'src/sandbox imports nothing else from src (it is the fake server the tests trust)',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/', pathNot: '^src/sandbox/' },
    },
    {
      name: 'no-cycle-across-folders',
      severity: 'error',
      comment: 'an import loop that leaves its folder ties two layers together (dynamic import() does not excuse it)',
      from: { path: '^src/([^/]+)' },
      to: { circular: true, viaSomeNot: '^src/$1' },
    },
    {
      name: 'no-cycle',
      severity: 'error',
      comment:
        'no import loops inside a folder either. The one pair exempt is a verb: its definition (<verb>.command.ts) loads its handler lazily and the handler takes its Input type from the definition; definitions-stay-light keeps that the only loop a definition can be in',
      from: { pathNot: '[.]command[.]ts$' },
      to: { circular: true, viaNot: '[.]command[.]ts$' },
    },
    {
      name: 'definitions-stay-light',
      severity: 'error',
      comment:
        'a <verb>.command.ts imports only the command kit (commander, action, options) and type modules (units/types); its handler (<verb>.ts) only with import(), so --help loads no handler',
      from: { path: '^src/commands/.+[.]command[.]ts$' },
      to: {
        pathNot: ['^src/kit/(commander|action|options)[.]ts$', '^src/units/types[.]ts$', '^node_modules/'],
        dependencyTypesNot: ['dynamic-import'],
      },
    },
    {
      name: 'undici-only-through-parts',
      severity: 'error',
      comment: "only src/net/undici-parts.ts imports undici, and only the parts a request needs; importing 'undici' itself loads all of it",
      from: { pathNot: '^src/net/undici-parts[.]ts$' },
      to: { path: '(^|/)node_modules/undici/' },
    },
    {
      name: 'socks-only-through-the-probe',
      severity: 'error',
      comment: 'src/net/proxy-probe.ts is the one proxy client; nothing else loads the socks package',
      from: { pathNot: '^src/net/proxy-probe[.]ts$' },
      to: { path: '(^|/)node_modules/socks/' },
    },
    {
      name: 'keyring-only-through-its-module',
      severity: 'error',
      comment:
        'src/config/keyring.ts is the one door to the OS keyring: it loads the native binding only when a stored key is read, written or removed',
      from: { pathNot: '^src/config/keyring[.]ts$' },
      to: { path: '(^|/)node_modules/@napi-rs/keyring' },
    },
    {
      name: 'pg-only-through-the-shared-ledger',
      severity: 'error',
      comment:
        "src/ledger/pg/ is the one door to PostgreSQL (a team's shared ledger): node-postgres loads only when a ledger URL is set, through context/shared-store.ts (the CLI) or src/sdk.ts (`ledger: { url }`)",
      from: { pathNot: '^src/ledger/pg/' },
      to: { path: '(^|/)node_modules/(pg|@types/pg)/' },
    },
    {
      name: 'shared-ledger-loaded-lazily',
      severity: 'error',
      comment:
        'the shared ledger module (and pg with it) is imported only with import(), by context/shared-store.ts or src/sdk.ts, when a ledger URL is set',
      from: { pathNot: '^src/ledger/pg/' },
      to: { path: '^src/ledger/pg/', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'an import that resolves to nothing',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API for dependency-cruiser to parse with, so swc parses the sources.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // Packages' `exports` maps, as Node resolves them (the MCP SDK's subpaths exist only there).
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    exclude: { path: '^src/.*[.]md$' },
  },
};
