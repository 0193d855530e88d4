import pkg from '../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;

export function userAgent(): string {
  return `proxyctl/${VERSION} node/${process.versions.node}`;
}
