// What operations tests run against instead of a service and a terminal: an in-memory Api (collections by path,
// ids and created_at as the service gives them, 404 as an ApiError), a recording View and a manifest directory.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../src/errors.ts';
import type { Api, Obj } from '../../src/kinds/resource-kind.ts';
import type { ApplyView } from '../../src/operations/apply.ts';

const PREFIXES: Record<string, string> = { '/ip_policies': 'ipp_', '/ip_policy_rules': 'ipr_' };

export class FakeApi implements Api {
  readonly collections = new Map<string, Map<string, Obj>>();
  /** Every write, as `METHOD path`, in order. */
  readonly writes: string[] = [];
  /** Awaited before a list of `path` answers: hold it to keep the plan in progress. */
  beforeList: (path: string) => Promise<void> | void = () => {};
  private seq = 0;

  private collection(path: string): Map<string, Obj> {
    let c = this.collections.get(path);
    if (!c) this.collections.set(path, (c = new Map()));
    return c;
  }

  private item(path: string, method: string): { coll: Map<string, Obj>; id: string } {
    const at = path.lastIndexOf('/');
    const coll = this.collection(path.slice(0, at));
    const id = path.slice(at + 1);
    if (!coll.has(id)) throw new ApiError({ status: 404, errorCode: 'ERR_NGROK_404', message: 'not found', operation: `${method} ${path}` });
    return { coll, id };
  }

  /** Items of a collection, as listed. */
  items(path: string): Obj[] {
    return [...this.collection(path).values()];
  }

  /** Writes other than the stack lock's (lock records are IP policies whose description says so). */
  resourceWrites(): string[] {
    return this.writes.filter((w) => !this.lockIds.has(w.split('/').pop()!) && w !== 'POST /ip_policies (lock)');
  }

  private readonly lockIds = new Set<string>();

  async get(path: string): Promise<Obj> {
    const { coll, id } = this.item(path, 'GET');
    return { ...coll.get(id)! };
  }

  async post(path: string, body: Obj): Promise<Obj> {
    this.seq += 1;
    const id = `${PREFIXES[path] ?? 'res_'}${String(this.seq).padStart(6, '0')}`;
    const created_at = new Date(Date.UTC(2026, 0, 1, 0, 0, this.seq)).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const item: Obj = { ...body, id, uri: `https://api.example.test${path}/${id}`, created_at };
    this.collection(path).set(id, item);
    const lock = typeof body.description === 'string' && body.description.startsWith('edgeops apply lock');
    if (lock) this.lockIds.add(id);
    this.writes.push(lock ? `POST ${path} (lock)` : `POST ${path}`);
    return { ...item };
  }

  async patch(path: string, body: Obj): Promise<Obj> {
    const { coll, id } = this.item(path, 'PATCH');
    this.writes.push(`PATCH ${path}`);
    const item = { ...coll.get(id)!, ...body };
    coll.set(id, item);
    return { ...item };
  }

  async put(path: string): Promise<Obj> {
    throw new Error(`PUT ${path}: not part of these tests`);
  }

  async delete(path: string): Promise<void> {
    const { coll, id } = this.item(path, 'DELETE');
    this.writes.push(`DELETE ${path}`);
    coll.delete(id);
  }

  async list(path: string, _listKey: string, onPage?: (items: Obj[]) => void): Promise<Obj[]> {
    await this.beforeList(path);
    const items = this.items(path).map((i) => ({ ...i }));
    onPage?.(items);
    return items;
  }
}

/** An ApplyView recording what the apply showed, in order. */
export function recordingApplyView(): ApplyView & { shown: string[] } {
  const shown: string[] = [];
  return {
    shown,
    savedPlan: (file) => void shown.push(`saved-plan ${file}`),
    plan: (plan, footer) => void shown.push(`plan ${plan.summary.create}/${plan.summary.update}/${plan.summary.replace}/${plan.summary.delete}${footer.deletes ? ` ${footer.deletes}` : ''}`),
    progress(total) {
      shown.push(`progress ${total}`);
      return { onEvent: (e) => void shown.push(`${e.type} ${e.action.op} ${e.action.address}`), stop: () => void shown.push('stop') };
    },
    summary: (_plan, result) => void shown.push(`summary ok=${result.ok}`),
  };
}

/** A manifest directory: edgeops.yaml from `project`, and one IPPolicy document per name. */
export function manifests(project: string, policies: Record<string, string>): { dir: string; write(policies: Record<string, string>): void; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'edgeops-operations-'));
  writeFileSync(join(dir, 'edgeops.yaml'), project);
  const write = (p: Record<string, string>): void => {
    const docs = Object.entries(p).map(([name, description]) => `kind: IPPolicy\nname: ${name}\ndescription: ${JSON.stringify(description)}\n`);
    writeFileSync(join(dir, 'policies.yaml'), docs.join('---\n'));
  };
  write(policies);
  return { dir, write, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
