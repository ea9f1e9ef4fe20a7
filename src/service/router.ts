// Path matching for the resource routes: literal segments win over `:param` segments, left to right, so the
// most specific route answers. A path that matches with other methods only yields the Allow list (405).
import type { Handler, Method, RouteDef } from './resource-def.ts';
import { fillParams, templateSegments, type TemplateSegment } from '../contract/path.ts';

interface Compiled {
  segments: TemplateSegment[];
  methods: Map<Method, Handler>;
  /** Literal positions as a bitmask-like string for ordering: '1101' sorts before '1011'. */
  rank: string;
}

type Match =
  | { kind: 'route'; handler: Handler; params: Record<string, string> }
  | { kind: 'method'; allow: Method[] }
  | { kind: 'none' };

export class Router {
  private readonly routes: Compiled[] = [];

  constructor(defs: readonly RouteDef[]) {
    const byPath = new Map<string, Compiled>();
    for (const def of defs) {
      const key = fillParams(def.path, ':');
      let compiled = byPath.get(key);
      if (!compiled) {
        const segments = templateSegments(def.path);
        compiled = { segments, methods: new Map(), rank: segments.map((s) => (s.literal === null ? '0' : '1')).join('') };
        byPath.set(key, compiled);
        this.routes.push(compiled);
      }
      if (compiled.methods.has(def.method)) throw new Error(`duplicate route ${def.method} ${def.path}`);
      compiled.methods.set(def.method, def.handler);
    }
    this.routes.sort((a, b) => (a.rank < b.rank ? 1 : a.rank > b.rank ? -1 : 0));
  }

  match(method: string, path: string): Match {
    const parts = path.split('/').slice(1);
    let allow: Method[] | null = null;
    for (const route of this.routes) {
      const params = matchSegments(route, parts);
      if (!params) continue;
      const handler = route.methods.get(method as Method);
      if (handler) return { kind: 'route', handler, params };
      allow ??= [...route.methods.keys()];
    }
    return allow ? { kind: 'method', allow } : { kind: 'none' };
  }
}

function matchSegments(route: Compiled, parts: string[]): Record<string, string> | null {
  if (parts.length !== route.segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = route.segments[i]!;
    const part = parts[i]!;
    if (seg.literal !== null) {
      if (seg.literal !== part) return null;
    } else {
      if (part === '') return null;
      let decoded: string;
      try {
        decoded = decodeURIComponent(part);
      } catch {
        return null;
      }
      params[seg.param!] = decoded;
    }
  }
  return params;
}
