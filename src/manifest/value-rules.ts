// Stage 5, value rules: the service's checks of a resolved body that JSON Schema cannot say (a certificate
// chain that parses, a private key that matches its leaf: the kind's `valueRules`, from src/contract), run on
// the values the service would receive, once `{file}`/`{env}` secrets are read. A problem is reported at the
// field (at its `file`/`env` when read from one) with the service's own words, never with any of the value.
import type { ManifestIssue } from '../errors.ts';
import type { ResourceKind, ValueRules } from '../kinds/resource-kind.ts';
import type { ResolvedDoc } from './parents.ts';
import { childPointer, valuePos } from './pointer.ts';
import { secretSource } from './secrets.ts';

/**
 * The problems of every resolved document whose kind has value rules. A document whose checked fields are not
 * all strings, or already have a problem (`earlier`: a file that cannot be read, a key where no key belongs),
 * is left to that problem.
 */
export async function valueRuleIssues(resolved: readonly ResolvedDoc[], earlier: readonly ManifestIssue[]): Promise<ManifestIssue[]> {
  const issues: ManifestIssue[] = [];
  const checks = new Map<ResourceKind, ReturnType<ValueRules['load']>>();
  for (const { doc, kind, resource } of resolved) {
    const rules = kind.valueRules;
    if (!rules || !rules.fields.every((field) => typeof resource.spec[field] === 'string')) continue;
    const reported = (field: string): boolean => earlier.some((i) => i.address === resource.address && i.message.startsWith(`${field}:`));
    if (rules.fields.some(reported)) continue;
    if (!checks.has(kind)) checks.set(kind, rules.load());
    const problem = (await checks.get(kind)!)(resource.spec);
    if (!problem) continue;
    const field = problem.field ?? rules.fields[0]!;
    const source = secretSource(doc.fields[field] ?? null, childPointer('', field));
    issues.push({ pos: valuePos(doc, source.pointer), address: resource.address, message: `${field}: ${problem.message}${source.note}` });
  }
  return issues;
}
