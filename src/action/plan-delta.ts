// What changed between the plan of the previous push and this one, shown under the full plan in the
// pull-request comment: resources that entered or left the plan, and those whose action or fields differ.
import { formatPath } from '../render/values.ts';
import { changesDigest, type PlanState } from './plan-state.ts';

/** `path` is the field's JSON pointer (what plan states key fields by); the comment shows it as plans do. */
type FieldDelta = { path: string; how: 'new' | 'gone' | 'different' };

interface PlanDelta {
  added: { address: string; action: string }[];
  removed: { address: string; before: string }[];
  changed: { address: string; action: string; before: string; fields: FieldDelta[] }[];
}

/** Field-level detail when both sides have it; a compact side only tells that something differs. */
function fieldDeltas(before: Record<string, string> | string, after: Record<string, string> | string): FieldDelta[] {
  if (typeof before === 'string' || typeof after === 'string') return [];
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const out: FieldDelta[] = [];
  for (const path of paths) {
    if (before[path] === after[path]) continue;
    out.push({ path, how: before[path] === undefined ? 'new' : after[path] === undefined ? 'gone' : 'different' });
  }
  return out;
}

export function diffPlanStates(before: PlanState, after: PlanState): PlanDelta {
  const delta: PlanDelta = { added: [], removed: [], changed: [] };
  for (const [address, [action, changes]] of Object.entries(after.resources)) {
    const old = before.resources[address];
    if (!old) {
      delta.added.push({ address, action });
    } else if (old[0] !== action || changesDigest(old[1]) !== changesDigest(changes)) {
      delta.changed.push({ address, action, before: old[0], fields: fieldDeltas(old[1], changes) });
    }
  }
  for (const [address, [action]] of Object.entries(before.resources)) {
    if (!after.resources[address]) delta.removed.push({ address, before: action });
  }
  return delta;
}

const deltaSize = (d: PlanDelta): number => d.added.length + d.removed.length + d.changed.length;

const FIELD_WORDS: Record<FieldDelta['how'], string> = { new: 'newly changed', gone: 'no longer changed', different: 'different value' };

function changedLine(c: PlanDelta['changed'][number]): string {
  const action = c.action === c.before ? c.action : `${c.action} (was ${c.before})`;
  const fields = c.fields.map((f) => `\`${formatPath(f.path)}\` (${FIELD_WORDS[f.how]})`);
  return `- **changed** \`${c.address}\`: ${action}${fields.length > 0 ? `; ${fields.join(', ')}` : ''}`;
}

/**
 * The delta as a Markdown section; at most `maxLines` list items (a rewrite of a big stack would otherwise
 * repeat the whole plan), the rest counted.
 */
export function renderDelta(delta: PlanDelta, beforeSha: string | undefined, maxLines = 50, title = 'Since the previous plan'): string {
  const since = beforeSha ? ` (\`${beforeSha.slice(0, 7)}\`)` : '';
  const heading = `#### ${title}${since}`;
  const total = deltaSize(delta);
  if (total === 0) return `${heading}\n\nNo difference: this push plans exactly the same actions.\n`;
  const counts = `${delta.added.length} added, ${delta.removed.length} no longer planned, ${delta.changed.length} changed.`;
  const lines = [
    ...delta.added.map((a) => `- **added** \`${a.address}\`: ${a.action}`),
    ...delta.removed.map((r) => `- **no longer planned** \`${r.address}\` (was ${r.before})`),
    ...delta.changed.map(changedLine),
  ];
  const shown = lines.slice(0, maxLines);
  if (lines.length > maxLines) shown.push(`- ... and ${lines.length - maxLines} more`);
  return `${heading}\n\n${counts}\n\n${shown.join('\n')}\n`;
}
