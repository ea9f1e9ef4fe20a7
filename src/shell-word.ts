// A path or value as one word of a command line people copy into a shell (the command that plans a whole stack,
// the apply line under a plan's checksum).

/** `text` as it is when a shell takes it as one word, else in single quotes. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
