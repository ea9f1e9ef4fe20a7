// The plans a merge may apply when `path` holds several stacks: the one pull-request comment records, in a
// hidden line, the head commit it was planned at and every stack it planned with that plan's checksum (none when
// the stack had no changes, `failed` when its plan failed, `removed` for a stack root the pull request deletes).
// The merge reads it back and applies exactly those plans, each with its own checksum (run-stacks-apply.ts).
// Anyone who can comment can write a body, so what is read back is checked field by field before it is used.

/** One stack as the comment recorded it. */
export interface StackRecord {
  /** The stack root, relative to the repository root, `/`-separated. */
  dir: string;
  stack: string;
  /** The reviewed plan's checksum; null when it had no changes (or failed, or the stack was removed). */
  checksum: string | null;
  failed?: true;
  removed?: true;
}

export interface StacksRecord {
  /** The head commit the plans were made at. */
  sha?: string;
  stacks: StackRecord[];
}

const PREFIX = '<!-- edgeops-stacks-reviewed:';
const RECORD_RE = /<!-- edgeops-stacks-reviewed:([A-Za-z0-9+/=]+) -->/;
const CHECKSUM = /^sha256:[0-9a-f]{64}$/;
const STACK = /^[a-z0-9][a-z0-9-]*$/;
const SHA = /^[0-9a-f]{7,40}$/;

export function stacksRecordLine(record: StacksRecord): string {
  const clean: StacksRecord = { ...(record.sha && SHA.test(record.sha) ? { sha: record.sha } : {}), stacks: record.stacks };
  return `${PREFIX}${Buffer.from(JSON.stringify(clean)).toString('base64')} -->`;
}

function asStackRecord(value: unknown): StackRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.dir !== 'string' || v.dir === '' || v.dir.split('/').includes('..')) return undefined;
  if (typeof v.stack !== 'string' || !STACK.test(v.stack)) return undefined;
  if (v.checksum !== null && (typeof v.checksum !== 'string' || !CHECKSUM.test(v.checksum))) return undefined;
  return {
    dir: v.dir,
    stack: v.stack,
    checksum: v.checksum,
    ...(v.failed === true ? { failed: true as const } : {}),
    ...(v.removed === true ? { removed: true as const } : {}),
  };
}

/** The record a comment body holds; undefined when there is none or any part of it is not what we write. */
export function extractStacksRecord(body: string): StacksRecord | undefined {
  const match = RECORD_RE.exec(body);
  if (!match) return undefined;
  try {
    const value = JSON.parse(Buffer.from(match[1]!, 'base64').toString('utf8')) as Record<string, unknown>;
    if (!Array.isArray(value.stacks)) return undefined;
    const stacks = value.stacks.map(asStackRecord);
    if (stacks.some((s) => s === undefined)) return undefined;
    const sha = typeof value.sha === 'string' && SHA.test(value.sha) ? value.sha : undefined;
    return { ...(sha ? { sha } : {}), stacks: stacks as StackRecord[] };
  } catch {
    return undefined;
  }
}
