// Which field a violation points at: the validation's own `field`, else the last `object.a.b` its expression
// (or a variable it uses) reads. The result is shown as people read it and located through the document's positions.
import type { PolicyDoc, PolicyValidation } from './documents.ts';

const OBJECT_PATH = /\bobject\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)/g;

/**
 * The dotted path of the last field `expression` reads, skipping method calls (`object.cidr.startsWith` ->
 * `cidr`): guards come first (`has(object.a) && object.a.b > 0`, `object.action != 'allow' || ...cidr...`),
 * the condition that fails last.
 */
function pathIn(expression: string): string | undefined {
  const m = [...expression.matchAll(OBJECT_PATH)].at(-1);
  if (!m) return undefined;
  const after = expression.slice(m.index + m[0].length);
  const parts = m[1]!.split('.');
  if (after.startsWith('(')) parts.pop();
  return parts.length > 0 ? parts.join('.') : undefined;
}

export function offendingField(validation: PolicyValidation, policy: PolicyDoc): { field: string; pointer: string } {
  let field = validation.field ?? pathIn(validation.expression);
  if (field === undefined) {
    // A variable the expression uses, in the order they are declared.
    for (const v of policy.variables) {
      if (!new RegExp(`\\b${v.name}\\b`).test(validation.expression)) continue;
      field = pathIn(v.expression);
      if (field !== undefined) break;
    }
  }
  if (field === undefined || field === '') return { field: '', pointer: '' };
  return { field, pointer: `/${field.split('.').join('/')}` };
}
