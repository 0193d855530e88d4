// undici's internal modules that src/net/undici-parts.ts imports (undici 7 ships types only for
// its index). Each is CommonJS; its default import is its module.exports, typed there.
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const Dispatcher: { prototype: object };
  export default Dispatcher;
}
declare module 'undici/lib/api/index.js' {
  const api: Record<string, unknown>;
  export default api;
}
declare module 'undici/lib/dispatcher/pool.js' {
  const Pool: unknown;
  export default Pool;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  const EnvHttpProxyAgent: unknown;
  export default EnvHttpProxyAgent;
}
declare module 'undici/lib/dispatcher/client.js' {
  const Client: unknown;
  export default Client;
}
declare module 'undici/lib/dispatcher/proxy-agent.js' {
  const ProxyAgent: unknown;
  export default ProxyAgent;
}
