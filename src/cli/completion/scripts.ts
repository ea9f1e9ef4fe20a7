// The shells `edgeops completion` writes a script for, one entry each.
import { bashScript } from './bash.ts';
import { fishScript } from './fish.ts';
import type { CompletionSpec } from './spec.ts';
import { zshScript } from './zsh.ts';

export const SHELLS = {
  bash: bashScript,
  zsh: zshScript,
  fish: fishScript,
} as const satisfies Record<string, (spec: CompletionSpec) => string>;

export type Shell = keyof typeof SHELLS;
