// The PATH... operand of validate, plan, apply and drift: manifest files or directories, the current directory
// when none is given (a run from the directory of a stack needs no path).
import { Argument } from 'commander';

export const DEFAULT_PATHS: readonly string[] = ['.'];

export function pathsArgument(description = 'manifest files or directories'): Argument {
  return new Argument('[paths...]', description).default([...DEFAULT_PATHS], 'the current directory');
}
