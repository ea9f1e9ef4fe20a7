// The options that say which plan a run makes or applies: `--target Kind/name` (plan and apply, repeatable) and
// `--checksum` (apply). A value of the wrong form is a usage error, printed as commander prints every other one,
// with the form expected; whether a well-formed target names anything is for the plan to say.
import { InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '../errors.ts';
import { CHECKSUM_FORM, TARGET_FORM } from '../operations/plan-selection.ts';

export function targetOption(): Option {
  return new Option('--target <Kind/name>', 'plan only this resource and what it references (repeat for several); nothing else is changed or deleted')
    .argParser((value: string, previous: string[] | undefined) => {
      if (!TARGET_FORM.test(value)) throw new InvalidArgumentError('Expected Kind/name, a document\'s kind and name, e.g. --target TCPEdge/ssh.');
      return [...(previous ?? []), value];
    });
}

/** `--checksum sha256:...` for one stack, or `--checksum STACK=sha256:...` (repeated) naming the stack it approves. */
const NAMED_CHECKSUM = /^([a-z0-9][a-z0-9-]*)=(.+)$/;

export function checksumOption(): Option {
  return new Option('--checksum <checksum>', 'apply only if a fresh plan has this checksum (as printed by `plan`); no prompt; STACK=CHECKSUM for one of several stacks (repeat for each)')
    .argParser((value: string, previous: string[] | undefined) => {
      const named = NAMED_CHECKSUM.exec(value.trim());
      if (!CHECKSUM_FORM.test((named ? named[2]! : value).trim())) {
        throw new InvalidArgumentError('Expected a plan checksum as `plan` prints it: sha256: followed by 64 hexadecimal digits (STACK=sha256:... for one of several stacks).');
      }
      return [...(previous ?? []), value.trim()];
    });
}

/** The checksums given, by the stack each names; `''` for the plain form. */
export function checksumsByStack(given: readonly string[] | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const value of given ?? []) {
    const named = NAMED_CHECKSUM.exec(value);
    const stack = named ? named[1]! : '';
    if (out.has(stack)) throw new ConfigError(stack === '' ? '--checksum is given twice' : `--checksum names stack ${stack} twice`);
    out.set(stack, named ? named[2]! : value);
  }
  return out;
}

/** The checksum approving a run of one stack: the plain one, or the one naming it. */
export function checksumForStack(given: readonly string[] | undefined, stack: string): string | undefined {
  const byStack = checksumsByStack(given);
  if (byStack.size === 0) return undefined;
  const plain = byStack.get('');
  if (plain !== undefined && byStack.size === 1) return plain;
  const mine = byStack.get(stack);
  const others = [...byStack.keys()].filter((s) => s !== stack);
  if (plain !== undefined || others.length > 0) {
    throw new ConfigError(`--checksum: this run applies one stack, ${stack}; ${plain !== undefined ? 'give one checksum' : `the checksum${others.length === 1 ? '' : 's'} given for ${others.join(', ')} approve${others.length === 1 ? 's' : ''} no stack of it`}`);
  }
  return mine;
}
