// How a plan's rename hints read (engine/rename-hints.ts): the same sentence in the text and Markdown plans and
// in the JSON plan's `rename_hints[].message`, naming the line that turns the delete and create into a rename.
import type { RenameHint } from '../engine/plan-data.ts';

/** The `moved_from` line to add to the new document: the old name (the kind is the same). */
export function movedFromLine(hint: RenameHint): string {
  return `moved_from: ${hint.from.slice(hint.from.indexOf('/') + 1)}`;
}

export function renameHintText(hint: RenameHint): string {
  return `${hint.from} and ${hint.to} look like a rename; add "${movedFromLine(hint)}" to ${hint.to} to keep its id (apply would delete it and create a new one)`;
}
