// `proxyctl mcp` (serve agents over MCP) and `mcp install` (configure a client to start it).
import install from './install.command.js';
import serve from './serve.command.js';

export default { ...serve, subcommands: [install] };
