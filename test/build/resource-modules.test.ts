// The service finds its resource modules by reading src/service/resources/; the build, which has no directory
// to read at run time, imports the same files. The built CLI's `edgeops serve` must then answer every route the
// sources declare: each is asked for an id that does not exist, and must answer as that route does (its kind's
// not-found, or a refusal of the request), never "no endpoint at this path" or "method not allowed".
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RESOURCE_MODULES } from '../../src/service/resource-modules.ts';
import { RESOURCES } from '../../src/service/routes.ts';
import { ROOT } from '../cli/run.ts';
import { startServe, type ServeProcess } from './serve-process.ts';
import { tempDbFile } from '../helpers/service.ts';

const db = tempDbFile();
let serve: ServeProcess;
beforeAll(async () => {
  serve = await startServe(process.execPath, ['--port', '0', '--db', db.dbFile, '--api-key', 'k']);
});
afterAll(async () => {
  await serve?.stop();
  db.cleanup();
});

it('every file in src/service/resources/ is a resource module the service serves', () => {
  const files = readdirSync(join(ROOT, 'src/service/resources')).filter((f) => f.endsWith('.ts'));
  expect(files.length).toBeGreaterThanOrEqual(10);
  expect(RESOURCE_MODULES).toHaveLength(files.length);
  for (const module of RESOURCE_MODULES) expect(RESOURCES).toContain(module);
});

it('the built CLI serves every route the sources declare', async () => {
  const routes = RESOURCES.flatMap((r) => r.routes);
  expect(routes.length).toBeGreaterThan(60);
  const wrong: string[] = [];
  for (const route of routes) {
    const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => (name === 'type' ? 'kafka' : `x_${name}`));
    const hasBody = route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT';
    const res = await fetch(`${serve.url}${path}`, {
      method: route.method,
      headers: { authorization: 'Bearer k', 'service-version': '2', ...(hasBody ? { 'content-type': 'application/json' } : {}) },
      body: hasBody ? '{}' : undefined,
    });
    const body = (await res.json().catch(() => ({}))) as { error_code?: string };
    if (body.error_code === 'ERR_NOT_FOUND_PATH' || body.error_code === 'ERR_METHOD_NOT_ALLOWED') wrong.push(`${route.method} ${route.path}: ${body.error_code}`);
  }
  expect(wrong).toEqual([]);
});
