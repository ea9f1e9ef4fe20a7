// A stack's variable values against its bases' declarations: every declared variable gets the stack's value or
// the default, each of the declared type; a value set for a variable no base declares is an error (a typo would
// otherwise be silently ignored), a declared variable no document uses is a warning.
import { isObj } from '../../contract/json.ts';
import type { ManifestIssue, SourcePos } from '../../errors.ts';
import type { Json } from '../../kinds/resource-kind.ts';
import type { ParsedDoc } from '../parse.ts';
import { childPointer } from '../../contract/field-path.ts';
import { keyPos, keyPositionsOf, valuePos } from '../pointer.ts';
import { where } from './positions.ts';
import type { VarValue } from './substitute.ts';
import { typeProblem, type VarDeclaration } from './var-types.ts';

/** The positions at `at` and below it, by pointer relative to `at`. */
function below(positions: Map<string, SourcePos> | undefined, at: string): Map<string, SourcePos> {
  const out = new Map<string, SourcePos>();
  for (const [p, pos] of positions ?? []) if (p === at || p.startsWith(`${at}/`)) out.set(p.slice(at.length), pos);
  return out;
}

export function stackVarValues(
  project: ParsedDoc | undefined,
  declarations: ReadonlyMap<string, VarDeclaration>,
  used: ReadonlySet<string>,
  out: { issues: ManifestIssue[]; warnings: ManifestIssue[] },
): Map<string, VarValue> {
  const values = new Map<string, VarValue>();
  const set = isObj(project?.value.vars) ? (project!.value.vars as Record<string, Json>) : {};
  for (const [name, value] of Object.entries(set)) {
    const at = childPointer('/vars', name);
    const declaration = declarations.get(name);
    if (!declaration) {
      const known = [...declarations.keys()].sort();
      out.issues.push({
        pos: keyPos(project!, at), pointer: at,
        message: `no base of this stack declares a variable "${name}"${known.length ? ` (declared: ${known.join(', ')})` : ' (its bases declare none)'}`,
      });
      continue;
    }
    const wrong = typeProblem(value, declaration.type);
    if (wrong) {
      out.issues.push({ pos: valuePos(project!, at), pointer: at, message: `${wrong} (declared as ${declaration.type} at ${where(declaration.pos)})` });
      continue;
    }
    values.set(name, { name, type: declaration.type, value, positions: below(project!.positions, at), keys: below(keyPositionsOf(project!), at) });
  }
  for (const declaration of declarations.values()) {
    const { name } = declaration;
    if (!used.has(name)) out.warnings.push({ pos: declaration.pos, message: `variable "${name}" is declared but no document uses it` });
    if (name in set) continue;
    if (declaration.default === undefined) {
      const pos = project ? (project.positions.has('/vars') ? keyPos(project, '/vars') : project.pos) : declaration.pos;
      out.issues.push({ pos, message: `variable "${name}" (declared at ${where(declaration.pos)}) has no value and no default: set vars.${name} in this stack's edgeops.yaml` });
      continue;
    }
    const wrong = typeProblem(declaration.default, declaration.type);
    if (wrong) {
      out.issues.push({ pos: declaration.defaultPos ?? declaration.pos, pointer: childPointer(childPointer('/vars', name), 'default'), message: `${wrong} (declared as ${declaration.type})` });
      continue;
    }
    values.set(name, { name, type: declaration.type, value: declaration.default, positions: declaration.defaultPositions ?? new Map(), keys: new Map() });
  }
  return values;
}
