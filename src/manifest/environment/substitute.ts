// Typed values in documents: `{var: NAME}` stands for a variable's whole value (a string, number, list or map)
// and `{template: "api.${domain}:443"}` builds a string from scalar variables (`$${` writes a literal `${`).
// Nothing else is substituted: a `${...}` in a plain string stays as written (traffic policies use that syntax
// themselves). A substituted value takes the position where the variable's value is written, chained to the
// place that used it, so a wrong value is reported at the line that sets it.
import { isObj } from '../../contract/json.ts';
import type { ManifestIssue, SourcePos } from '../../errors.ts';
import type { Json, Obj } from '../../kinds/resource-kind.ts';
import { addressOf, type ManifestDoc } from '../document.ts';
import { childPointer } from '../../contract/field-path.ts';
import { cloneJson, keyPositionsOf, valuePos } from '../pointer.ts';
import { chained, dropWithin, where } from './positions.ts';
import { TEMPLATE_TYPES, type VarType } from './var-types.ts';

/** A variable's value for a stack: the stack's own, or the base's default. */
export interface VarValue {
  name: string;
  type: VarType;
  value: Json;
  /** Positions of the value (`''`) and of its items and members, by pointer relative to it. */
  positions: Map<string, SourcePos>;
  /** Positions of its members' keys (a map), by pointer relative to it. */
  keys: Map<string, SourcePos>;
}

/** `{var: NAME}` or `{template: TEXT}`: the one key of the mapping, else undefined. */
export function typedValueKey(value: Json): 'var' | 'template' | undefined {
  if (!isObj(value)) return undefined;
  let only: string | undefined;
  for (const key in value) {
    if (only !== undefined) return undefined;
    only = key;
  }
  return only === 'var' || only === 'template' ? only : undefined;
}

/** The variable names a template refers to, and what is wrong with its text (an unclosed `${`). */
function templateParts(text: string): { parts: ({ text: string } | { name: string })[]; problem?: string } {
  const parts: ({ text: string } | { name: string })[] = [];
  let literal = '';
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('$${', i)) {
      literal += '${';
      i += 2;
    } else if (text.startsWith('${', i)) {
      const end = text.indexOf('}', i + 2);
      if (end < 0) return { parts, problem: `"\${" at character ${i + 1} is never closed with "}" (write "$\${" for a literal "\${")` };
      const name = text.slice(i + 2, end).trim();
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return { parts, problem: `"\${${name}}" is not a variable name (write "$\${" for a literal "\${")` };
      if (literal) parts.push({ text: literal });
      literal = '';
      parts.push({ name });
      i = end;
    } else {
      literal += text[i];
    }
  }
  if (literal) parts.push({ text: literal });
  return { parts };
}

/** The variables a value uses through `{var}` and `{template}`, anywhere inside it. */
export function usedVars(value: Json, into: Set<string>): void {
  const typed = typedValueKey(value);
  if (typed === 'var' && typeof (value as Obj).var === 'string') into.add((value as Obj).var as string);
  else if (typed === 'template' && typeof (value as Obj).template === 'string') {
    for (const part of templateParts((value as Obj).template as string).parts) if ('name' in part) into.add(part.name);
  } else if (Array.isArray(value)) for (const item of value) usedVars(item, into);
  else if (isObj(value)) for (const key in value) usedVars(value[key]!, into);
}

/**
 * Replaces every `{var}` and `{template}` in `doc`'s fields (in place: the caller owns the copy) and moves the
 * positions; problems go to `issues`. `declared` names every declared variable, `values` those with a value.
 */
export function substituteDoc(doc: ManifestDoc, declared: ReadonlySet<string>, values: ReadonlyMap<string, VarValue>, issues: ManifestIssue[], unresolved: SourcePos[]): void {
  const address = addressOf(doc);
  const keys = keyPositionsOf(doc);
  const problem = (pointer: string, message: string): void => {
    issues.push({ pos: valuePos(doc, pointer), address, message });
  };
  const unknown = (name: string): string =>
    declared.size === 0 ? `no variable "${name}": the stack's bases declare none (a base declares its variables under vars: in its edgeops.yaml)`
      : `no variable "${name}" is declared by the stack's bases (declared: ${[...declared].sort().join(', ')})`;

  const replaceVar = (name: Json, pointer: string, set: (v: Json) => void): void => {
    const at = childPointer(pointer, 'var');
    unresolved.push(valuePos(doc, pointer));
    if (typeof name !== 'string') return problem(at, '{var: NAME}: the name must be a string');
    const found = values.get(name);
    if (!found) {
      // A declared variable without a value is reported once, at the stack's edgeops.yaml.
      if (!declared.has(name)) problem(at, `{var: ${name}}: ${unknown(name)}`);
      return;
    }
    unresolved.pop();
    const via = `{var: ${name}} at ${where(valuePos(doc, pointer))}`;
    set(cloneJson(found.value));
    dropWithin(doc.positions, pointer);
    if (keys) dropWithin(keys, pointer);
    for (const [rel, pos] of found.positions) doc.positions.set(pointer + rel, chained(pos, via));
    if (keys) for (const [rel, pos] of found.keys) keys.set(pointer + rel, chained(pos, via));
  };

  const replaceTemplate = (text: Json, pointer: string, set: (v: Json) => void): void => {
    const at = childPointer(pointer, 'template');
    unresolved.push(valuePos(doc, pointer));
    if (typeof text !== 'string') return problem(at, '{template: TEXT}: the text must be a string');
    const { parts, problem: wrong } = templateParts(text);
    if (wrong) return problem(at, `{template}: ${wrong}`);
    let out = '';
    for (const part of parts) {
      if ('text' in part) {
        out += part.text;
        continue;
      }
      const found = values.get(part.name);
      if (!found) {
        if (!declared.has(part.name)) problem(at, `{template}: \${${part.name}}: ${unknown(part.name)}`);
        return;
      }
      if (!TEMPLATE_TYPES.includes(found.type)) return problem(at, `{template}: \${${part.name}} is a ${found.type}; a template writes only strings, numbers and booleans (use {var: ${part.name}} for the whole value)`);
      out += String(found.value);
    }
    unresolved.pop();
    const pos = valuePos(doc, at);
    set(out);
    dropWithin(doc.positions, pointer);
    if (keys) dropWithin(keys, pointer);
    doc.positions.set(pointer, pos);
  };

  const walk = (value: Json, pointer: string, set: (v: Json) => void): void => {
    const typed = typedValueKey(value);
    if (typed === 'var') return replaceVar((value as Obj).var!, pointer, set);
    if (typed === 'template') return replaceTemplate((value as Obj).template!, pointer, set);
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, childPointer(pointer, i), (v) => { value[i] = v; }));
    else if (isObj(value)) for (const key in value) walk(value[key]!, childPointer(pointer, key), (v) => { value[key] = v; });
  };
  walk(doc.fields, '', () => undefined);
}
