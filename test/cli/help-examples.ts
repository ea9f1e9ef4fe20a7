// The examples of `edgeops --help` that run on their own in a directory of manifests, with nothing else
// started (no service of the user's, no lock to release, no shell to load a script into), in the help's order.
const SELF_CONTAINED = new Set(['validate', 'fmt', 'plan', 'show', 'apply', 'drift', 'list', 'stacks', 'graph', 'export']);

export function runnableExamples(help: string): string[][] {
  return help.split('\n')
    .map((line) => line.match(/^ {2}\$ edgeops (.+?)(?:\s+#.*)?$/)?.[1]?.split(/\s+/))
    .filter((args): args is string[] => args !== undefined && SELF_CONTAINED.has(args[0]!));
}
