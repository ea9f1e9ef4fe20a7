// The set the interrupt, lock-recovery and restart tests apply: IP policies, each with one rule that references
// it (so half of the actions depend on the other half), and how many live copies each document has.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMetadata } from '../../src/kinds/marker.ts';
import { api as http } from './service.ts';

/** Writes `count` IP policies with a rule each into `base/name/all.yaml`; returns the directory. */
export function writePolicySet(base: string, name: string, count: number): string {
  const dir = join(base, name);
  mkdirSync(dir);
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    const p = `p-${String(i).padStart(3, '0')}`;
    docs.push(`kind: IPPolicy\nname: ${p}\n`);
    docs.push(`kind: IPPolicyRule\nname: ${p}-r\nip_policy_id: ${p}\ncidr: 10.${Math.floor(i / 256)}.${i % 256}.0/24\naction: allow\n`);
  }
  writeFileSync(join(dir, 'all.yaml'), docs.join('---\n'));
  return dir;
}

/** Live copies of each managed address (policies and rules), and the stack lock records, through plain HTTP. */
export async function policySetState(svc: { url: string; apiKey: string }): Promise<{ copies: Record<string, number>; locks: number }> {
  const client = http(svc);
  const copies: Record<string, number> = {};
  let locks = 0;
  for (const [path, key] of [['/ip_policies', 'ip_policies'], ['/ip_policy_rules', 'ip_policy_rules']] as const) {
    for (const item of (await client.listAll(path, key)) as { metadata?: string }[]) {
      const name = parseMetadata(item.metadata).marker?.name;
      if (name?.startsWith('Lock/')) locks++;
      else if (name) copies[name] = (copies[name] ?? 0) + 1;
    }
  }
  return { copies, locks };
}
