// What the contract's custom JSON Schema keywords check (see schema.ts, keywords.ts), as plain functions of the
// keyword's value and the data. Each failure is a ValueProblem; a problem about one item or key names it in `at`
// (a JSON pointer below the keyword's value), so the message can say where (hostports[2], headers["X-A"]). No ajv
// here: the built CLI's precompiled validators import this module and nothing of ajv's compiler.
import { childPointer } from './field-path.ts';
import { quoteValue } from './rule-error.ts';
import { headerNameProblem, RULES } from './rules.ts';
import type { ContractCode, Distinct, RuleName, ValueProblem } from './schema.ts';
import { hostportKey, hostportProblem } from './values.ts';

/** A keyword's problem: `at` is a JSON pointer, below the keyword's value, to the item or key it is about. */
export type KeywordProblem = ValueProblem & { at?: string };

/** A JSON pointer segment (RFC 6901). */
function pointerSegment(key: string | number): string {
  return childPointer('', key);
}

function distinctKey(by: Distinct['by'], value: string): string | undefined {
  if (by === 'exact') return value;
  if (by === 'casefold') return value.toLowerCase();
  // An invalid hostport has no key; its own rule reports it.
  return hostportProblem(value) ? undefined : hostportKey(value);
}

/** What each keyword checks, as plain functions of the keyword's value and the data; undefined when it holds. */
export const CONTRACT_KEYWORD_FNS = {
  rule(name: RuleName, data: unknown): KeywordProblem | undefined {
    return RULES[name](data);
  },

  distinct(spec: Distinct, data: unknown[]): KeywordProblem | undefined {
    const seen = new Set<string>();
    // Indexed, not entries(): a plan checks every document's lists, mostly before V8 optimizes this.
    for (let i = 0; i < data.length; i++) {
      const item = data[i];
      const value = spec.property === undefined ? item : (item as Record<string, unknown> | null)?.[spec.property];
      if (typeof value !== 'string') continue;
      const key = distinctKey(spec.by, value);
      if (key === undefined) continue;
      if (seen.has(key)) {
        const at = pointerSegment(i) + (spec.property === undefined ? '' : pointerSegment(spec.property));
        const how = spec.by === 'casefold' ? ' (names ignore case)' : '';
        return { code: spec.code, message: `${quoteValue(value)} is listed twice${how}`, at };
      }
      seen.add(key);
    }
    return undefined;
  },

  mapKeys(spec: 'nonempty' | 'header_name', data: Record<string, unknown>): KeywordProblem | undefined {
    const seen = new Set<string>();
    for (const key of Object.keys(data)) {
      if (spec !== 'header_name') {
        if (key === '') return { code: 'ERR_MAP_KEY_INVALID', message: 'keys must not be empty' };
        continue;
      }
      const bad = headerNameProblem(key);
      if (bad) return { ...bad, at: pointerSegment(key) };
      if (seen.has(key.toLowerCase())) {
        return { code: 'ERR_HEADER_DUPLICATE', message: `${quoteValue(key)} given twice (names ignore case)`, at: pointerSegment(key) };
      }
      seen.add(key.toLowerCase());
    }
    return undefined;
  },

  refused(message: string, code: ContractCode | undefined): KeywordProblem {
    return { code: code ?? 'ERR_FIELD_INVALID', message };
  },

  tooLong(max: number, data: string): boolean {
    // No UTF-16 unit takes more than 3 bytes in UTF-8: most strings are short enough to need no count.
    return data.length * 3 > max && Buffer.byteLength(data, 'utf8') > max;
  },
};
