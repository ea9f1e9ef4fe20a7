// What a shell completion script knows, read from the commander program itself (buildProgram), so a new
// command or option is completed without a change here: each visible command with its options and arguments,
// the choices commander checks (--format's), and which option takes a value.
import { Help, type Argument, type Command, type Option } from 'commander';

/** The option whose value is a `Kind/name` of the manifests, completed by `edgeops __complete-targets`. */
const TARGET_OPTION = '--target';

/** The hidden command that prints the `Kind/name` of every document under a path, one per line. */
export const TARGETS_COMMAND = '__complete-targets';

export interface OptionSpec {
  /** `--format`, and the short form first when there is one (`-V`). */
  names: string[];
  description: string;
  takesValue: boolean;
  /** The value is a file or directory name (its placeholder says so: `<file>`, `<dir>`, `<file-or-url>`). */
  files: boolean;
  choices?: string[];
  /** The value is a resource address from the manifests. */
  targets: boolean;
}

interface ArgumentSpec {
  name: string;
  choices?: string[];
}

export interface CommandSpec {
  name: string;
  description: string;
  options: OptionSpec[];
  args: ArgumentSpec[];
}

export interface CompletionSpec {
  program: string;
  /** The program's own options (--help, --version). */
  options: OptionSpec[];
  commands: CommandSpec[];
}

/** One line, without the trailing `[env ..., default ...]` notes: what a completion menu has room for. */
function shortDescription(text: string): string {
  return text.replace(/\s*\[[^\]]*\]\s*$/, '').split('\n')[0]!.trim();
}

function optionSpec(option: Option): OptionSpec {
  const takesValue = option.required || option.optional;
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  return {
    names: [option.short, option.long].filter((n): n is string => n !== undefined),
    description: shortDescription(option.description),
    takesValue,
    files: takesValue && /file|dir|path/i.test(placeholder),
    ...(option.argChoices ? { choices: [...option.argChoices] } : {}),
    targets: takesValue && option.long === TARGET_OPTION,
  };
}

const argumentSpec = (arg: Argument): ArgumentSpec => ({ name: arg.name(), ...(arg.argChoices ? { choices: [...arg.argChoices] } : {}) });

export function completionSpec(program: Command): CompletionSpec {
  const help = new Help();
  return {
    program: program.name(),
    options: help.visibleOptions(program).map(optionSpec),
    commands: help.visibleCommands(program).map((cmd) => ({
      name: cmd.name(),
      description: shortDescription(cmd.description()),
      options: help.visibleOptions(cmd).map(optionSpec),
      args: help.visibleArguments(cmd).map(argumentSpec),
    })),
  };
}

/** The options of a command that take a value: the word after one is its value, never the PATH. */
export function valuedOptions(cmd: CommandSpec): string[] {
  return cmd.options.filter((o) => o.takesValue).flatMap((o) => o.names);
}
