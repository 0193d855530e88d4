// `proxyctl mcp` (serve agents over MCP) and `mcp install` (configure a client to start it).
import serve from './serve.command.js';

export default { ...serve, subcommands: [] };
