// How V8 compiles a short command. Node 20's V8 starts optimizing a function with TurboFan (on background
// threads) after little work: in a command that ends within a second or two, that compiling was a third of the
// CPU, which on a small machine competes with the command itself (and, with --local, the service inside it),
// and the optimized code rarely ran long enough to pay it back. Such a run lets a function do eight times the
// work before it is optimized. Measured on 2 cores, paired: a plan of 1,000 resources took 0.66x the CPU and
// 0.87x the time, of 5,000 0.68x and 0.93x, and validating 20,000 documents (1.5 s of CPU) the same time.
// The same run compiles undici's HTTP parser (WebAssembly) with the baseline tier only (src/client/undici-pool.ts
// says why). `serve` runs for hours and keeps V8's defaults; later Nodes tier up by other measures (and have
// Maglev), and do not know the flags.
// Every flag is set before the CLI's code is compiled: V8's cached code (src/launch/code-cache.ts) holds only
// for the flags it was made under.
/** Node 20's (V8 11.3's) default interrupt budget, in bytes of bytecode run. */
const NODE20_INTERRUPT_BUDGET = 67_584;

/** V8's own setter, from node:v8 loaded only then: the module loads the stream modules with it. */
const setV8Flag = (flag: string): void => process.getBuiltinModule('node:v8').setFlagsFromString(flag);

/** The command a run names: its first operand. */
export const firstOperand = (argv: readonly string[]): string | undefined => argv.find((a) => !a.startsWith('-'));

/**
 * Sets the V8 flags of a run of `command` (its first operand) under Node `node`, before the command runs, so
 * that its own code is tiered by them. `setFlag` is V8's, unless a test looks at what would be set.
 */
export function tuneForShortRun(command: string | undefined, node = process.versions.node, setFlag = setV8Flag): void {
  if (!node.startsWith('20.') || command === 'serve') return;
  setFlag(`--interrupt-budget=${NODE20_INTERRUPT_BUDGET * 8}`);
  setFlag('--liftoff-only');
}
