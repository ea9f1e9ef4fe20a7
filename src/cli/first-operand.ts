// The command a run names, read before commander parses anything: the program registers only that command's
// module (program.ts), and the launcher keeps that command's compiled code apart (src/launch/code-cache.ts).
/** The command a run names: its first operand. */
export const firstOperand = (argv: readonly string[]): string | undefined => argv.find((a) => !a.startsWith('-'));
