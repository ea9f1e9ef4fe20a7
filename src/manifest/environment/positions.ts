// Moving the positions of values between documents: a Patch's `set` puts values written in the patch file into a
// base's document, a `{var: NAME}` puts values written in an edgeops.yaml into a document. Each moved position
// keeps where the value is written and gains the chain that brought it (SourcePos.via), so a message about a
// resolved value points at the line to edit and says how it got there.
import { positionText, type SourcePos } from '../../errors.ts';
import { isWithin } from '../pointer.ts';

/** Removes the positions at `pointer` and below it (a value replaced or removed). */
export function dropWithin(positions: Map<string, SourcePos>, pointer: string): void {
  for (const key of [...positions.keys()]) if (isWithin(key, pointer)) positions.delete(key);
}

/** The chain of a position moved by `step` (`Patch of HTTPSEdge/api; document at ...`), after any it had. */
export function chained(pos: SourcePos, via: string): SourcePos {
  return { file: pos.file, line: pos.line, col: pos.col, via: pos.via ? `${pos.via}; ${via}` : via };
}

/**
 * Copies the positions at `from` and below it in `source` to `to` and below it in `target`, each with `via` added
 * to its chain.
 */
export function copyWithin(source: Map<string, SourcePos>, from: string, target: Map<string, SourcePos>, to: string, via: string): void {
  for (const [key, pos] of source) {
    if (!isWithin(key, from)) continue;
    target.set(to + key.slice(from.length), chained(pos, via));
  }
}

/** `file:line:col` with its own chain, for naming where something is inside another chain. */
export const where = (pos: SourcePos): string => positionText(pos);
