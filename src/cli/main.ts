// The CLI process's main: run the CLI on the process's arguments and map whatever it throws to an exit code, in
// this one place. src/main.ts calls it when the sources run (tsx), src/launch/launcher.ts when the built CLI does.
import { CommanderError } from 'commander';
import { errorText } from '../render/error-text.ts';
import { createContext } from './context.ts';
import { buildProgram } from './program.ts';

/**
 * A reader that stops early (`edgeops --help | head -1`) closes the pipe under us: the next write fails with
 * EPIPE, emitted as an 'error' event that would otherwise crash the process with a stack trace. Nobody is
 * reading any more, so output to that stream stops quietly and the command ends with its own exit code (an
 * apply in flight still finishes its actions and releases its lock rather than dying half-way).
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') return;
    throw err;
  });
}

export async function main(): Promise<void> {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  const ctx = createContext();
  try {
    const argv = process.argv.slice(2);
    let code = 0;
    const program = await buildProgram(ctx, (c) => {
      code = c;
    }, argv);
    await program.parseAsync(argv, { from: 'user' });
    process.exitCode = code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Commander has printed the usage error or the help already.
      process.exitCode = err.exitCode;
    } else {
      const failed = errorText(err);
      ctx.err(failed.text);
      if (failed.internal && ctx.env.EDGEOPS_DEBUG && err instanceof Error && err.stack) ctx.err(`${err.stack}\n`);
      process.exitCode = failed.exitCode;
    }
  }
}
