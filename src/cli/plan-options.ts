// The options that say which plan a run makes or applies: `--target Kind/name` (plan and apply, repeatable) and
// `--checksum` (apply). A value of the wrong form is a usage error, printed as commander prints every other one,
// with the form expected; whether a well-formed target names anything is for the plan to say.
import { InvalidArgumentError, Option } from 'commander';
import { CHECKSUM_FORM, TARGET_FORM } from '../operations/plan-selection.ts';

export function targetOption(): Option {
  return new Option('--target <Kind/name>', 'plan only this resource and what it references (repeat for several); nothing else is changed or deleted')
    .argParser((value: string, previous: string[] | undefined) => {
      if (!TARGET_FORM.test(value)) throw new InvalidArgumentError('Expected Kind/name, a document\'s kind and name, e.g. --target TCPEdge/ssh.');
      return [...(previous ?? []), value];
    });
}

export function checksumOption(): Option {
  return new Option('--checksum <checksum>', 'apply only if a fresh plan has this checksum (as printed by `plan`); no prompt')
    .argParser((value: string) => {
      if (!CHECKSUM_FORM.test(value.trim())) {
        throw new InvalidArgumentError('Expected a plan checksum as `plan` prints it: sha256: followed by 64 hexadecimal digits.');
      }
      return value.trim();
    });
}
