// A document renamed without `moved_from` plans a delete and a create with equal fields: the plan says so, in
// text, Markdown and JSON, naming the line that keeps the live resource, against the real service. With the
// line added, the plan is a rename (the marker rewritten, the id kept) and the hint is gone. Names are shown in
// natural order (bulk-2 before bulk-10) in the same plans.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { api, startTestService, type ApiClient, type TestService } from '../helpers/service.ts';
import { edgeops, type RunResult } from './run.ts';

let svc: TestService;
let http: ApiClient;
const dir = mkdtempSync(join(tmpdir(), 'edgeops-rename-hint-'));
const STACK = 'rename-hint';

const run = (args: string[]): Promise<RunResult> =>
  edgeops(args, { cwd: dir, env: { EDGEOPS_API_URL: svc.url, EDGEOPS_API_KEY: svc.apiKey, EDGEOPS_STACK: STACK, NO_COLOR: '1' } });

const write = (docs: string[]): void => writeFileSync(join(dir, 'all.yaml'), docs.join('---\n'));
const policy = (name: string, description: string, extra = ''): string => `kind: IPPolicy\nname: ${name}\ndescription: ${description}\n${extra}`;
const HINT = 'IPPolicy/office and IPPolicy/hq look like a rename; add "moved_from: office" to IPPolicy/hq to keep its id';

async function policies(): Promise<{ id: string; name: string }[]> {
  const items = (await http.listAll('/ip_policies', 'ip_policies')) as { id: string; metadata: string }[];
  return items.map((p) => ({ id: p.id, name: parseMetadata(p.metadata).marker?.name ?? '' })).filter((p) => p.name !== '');
}

beforeAll(async () => {
  svc = await startTestService();
  http = api(svc);
});

afterAll(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('rename hint', () => {
  let officeId = '';

  it('is printed in text, Markdown and JSON when a delete and a create of one kind have equal fields', async () => {
    write([policy('office', 'the office'), policy('lab', 'the lab')]);
    const applied = await run(['apply', 'all.yaml', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    officeId = (await policies()).find((p) => p.name === 'IPPolicy/office')!.id;

    // Renamed, and the lab's description changed: only the office pair looks like a rename.
    write([policy('hq', 'the office'), policy('lab', 'the new lab')]);
    const text = await run(['plan', 'all.yaml', '--detailed-exitcode']);
    expect(text.code, text.stderr).toBe(2);
    expect(text.stdout).toContain(`Hint: ${HINT}`);
    expect(text.stdout.match(/Hint:/g)).toHaveLength(1);

    const md = await run(['plan', 'all.yaml', '--format', 'markdown']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain(`> **Hint:** ${HINT.replace('moved_from', 'moved\\_from')}`);

    const json = await run(['plan', 'all.yaml', '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as { rename_hints?: { from: string; to: string; moved_from: string; message: string }[] };
    expect(plan.rename_hints).toEqual([{ from: 'IPPolicy/office', to: 'IPPolicy/hq', moved_from: 'moved_from: office', message: expect.stringContaining(HINT) }]);
  });

  it('is not printed when the fields differ', async () => {
    write([policy('hq', 'headquarters'), policy('lab', 'the lab')]);
    const r = await run(['plan', 'all.yaml', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as { resources: { address: string; action: string }[]; rename_hints?: unknown };
    expect(plan.resources.map((x) => [x.address, x.action])).toEqual(expect.arrayContaining([['IPPolicy/hq', 'create'], ['IPPolicy/office', 'delete']]));
    expect(plan.rename_hints).toBeUndefined();
  });

  it('goes away once the hinted line is added, and the apply keeps the id', async () => {
    write([policy('hq', 'the office', 'moved_from: office\n'), policy('lab', 'the lab')]);
    const text = await run(['plan', 'all.yaml']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('Hint:');
    expect(text.stdout).toContain('Plan: 0 to create, 1 to update, 0 to replace, 0 to delete.');
    const applied = await run(['apply', 'all.yaml', '--auto-approve']);
    expect(applied.code, applied.stderr).toBe(0);
    const live = await policies();
    expect(live.find((p) => p.name === 'IPPolicy/hq')?.id).toBe(officeId);
    expect(live.some((p) => p.name === 'IPPolicy/office')).toBe(false);
  });
});

describe('natural order of names', () => {
  it('a plan lists bulk-1 .. bulk-10 as counted, in text and JSON (golden)', async () => {
    const names = [10, 3, 1, 7, 2, 9, 5, 8, 4, 6].map((i) => `bulk-${i}`);
    write(names.map((n) => `kind: IPPolicy\nname: ${n}\n`));
    const text = await run(['plan', 'all.yaml', '--stack', 'bulk']);
    expect(text.code, text.stderr).toBe(0);
    await expect(text.stdout.replace(/sha256:[0-9a-f]{64}/g, 'sha256:<checksum>')).toMatchFileSnapshot('../fixtures/render/plan-natural-order.txt');
    const json = JSON.parse((await run(['plan', 'all.yaml', '--stack', 'bulk', '--format', 'json'])).stdout) as { resources: { address: string }[] };
    expect(json.resources.map((r) => r.address)).toEqual(Array.from({ length: 10 }, (_, i) => `IPPolicy/bulk-${i + 1}`));
  });
});
