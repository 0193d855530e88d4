// A tiny method-strict router: a path that exists with another method answers 405 with `Allow`;
// a path that does not exist answers 404.
import type { ApiRequest, Reply } from './http.js';
import type { World } from './world.js';

export type Handler = (w: World, req: ApiRequest) => Reply | Promise<Reply>;

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path after the prefix, with `{param}` segments. */
  path: string;
  /** Operation name: faults match on it, openapi.json uses it as operationId. */
  op: string;
  handler: Handler;
}

interface Compiled {
  segments: string[];
  byMethod: Map<string, Route>;
}

export type Match = { route: Route; params: Record<string, string> } | { allow: string[] } | undefined;

/** A malformed %-escape cannot name anything that exists: keep it verbatim (it then 404s). */
function decodeSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

export class Router {
  private readonly compiled: Compiled[] = [];

  constructor(prefix: string, routes: Route[]) {
    for (const r of routes) {
      const segments = (prefix + r.path).split('/').filter(Boolean);
      let c = this.compiled.find((x) => x.segments.join('/') === segments.join('/'));
      if (!c) {
        c = { segments, byMethod: new Map() };
        this.compiled.push(c);
      }
      c.byMethod.set(r.method, r);
    }
  }

  match(method: string, path: string): Match {
    const parts = path.split('/').filter(Boolean);
    for (const c of this.compiled) {
      if (c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = c.segments[i]!;
        if (seg.startsWith('{')) params[seg.slice(1, -1)] = decodeSegment(parts[i]!);
        else if (seg !== parts[i]) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      const route = c.byMethod.get(method) ?? (method === 'HEAD' ? c.byMethod.get('GET') : undefined);
      if (route) return { route, params };
      return { allow: [...c.byMethod.keys()] };
    }
    return undefined;
  }
}
