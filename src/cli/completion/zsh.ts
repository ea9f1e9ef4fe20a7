// The zsh completion script (#compdef): _arguments specs per command, the same knowledge as the bash script's
// (spec.ts): command names with their descriptions, options, choices, a Kind/name after --target from
// `edgeops __complete-targets PATH`, file names for paths.
import { TARGETS_COMMAND, valuedOptions, type CommandSpec, type CompletionSpec, type OptionSpec } from './spec.ts';

/** Single-quoted for zsh. */
const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** A description inside an _arguments `[...]`: brackets would end it, a colon is fine only in _describe. */
const bracketed = (text: string): string => text.replace(/[[\]]/g, (c) => (c === '[' ? '(' : ')')).replace(/\\/g, '');

function optionSpecs(option: OptionSpec, fn: string): string[] {
  const action = option.targets ? `${fn}_targets` : option.choices ? `(${option.choices.join(' ')})` : option.files ? '_files' : ' ';
  const value = option.takesValue ? `:${option.names.at(-1)!.replace(/^-+/, '')}:${action}` : '';
  const exclusive = option.names.length > 1 ? `(${option.names.join(' ')})` : '';
  return option.names.map((name) => quote(`${exclusive}${name}[${bracketed(option.description)}]${value}`));
}

function argumentSpecs(cmd: CommandSpec): string[] {
  if (cmd.args.length === 0) return [];
  const first = cmd.args[0]!;
  if (first.choices) return [quote(`1:${first.name}:(${first.choices.join(' ')})`)];
  return [quote(`*:${first.name}:_files`)];
}

export function zshScript(spec: CompletionSpec): string {
  const fn = `_${spec.program.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const commands = spec.commands.map((c) => `    ${quote(`${c.name}:${c.description}`)}`);
  const cases = spec.commands.map((cmd) => {
    const specs = [...cmd.options.flatMap((o) => optionSpecs(o, fn)), ...argumentSpecs(cmd)];
    return `    ${quote(cmd.name)}) _arguments -s ${specs.join(' \\\n        ')} ;;`;
  });
  return `#compdef ${spec.program}
# zsh completion for ${spec.program}: source <(${spec.program} completion zsh), or save it as ${fn} in a directory of
# $fpath. Generated from the commands and options of this version of ${spec.program}.

# The Kind/name of the documents under the command line's first operand (its PATH), or under the current directory.
${fn}_targets() {
  local dir=. w skip=
  local -a valued targets
  case $words[1] in
${spec.commands.map((c) => `    ${quote(c.name)}) valued=(${valuedOptions(c).join(' ')}) ;;`).join('\n')}
  esac
  # words: the command, then its own words (the program's were cut by _arguments' *::).
  for w in \${words[2,CURRENT-1]}; do
    if [[ -n $skip ]]; then skip=; continue; fi
    if (( \${valued[(Ie)$w]} )); then skip=1; continue; fi
    [[ $w == -* ]] && continue
    dir=$w; break
  done
  targets=(\${(f)"$($prog ${TARGETS_COMMAND} $dir 2>/dev/null)"})
  compadd -a targets
}

${fn}() {
  local curcontext="$curcontext" state line
  # The program as typed (a path works too); within a command's arguments, words start at the command.
  local prog=\${words[1]}
  local -a commands
  commands=(
${commands.join('\n')}
  )
  _arguments -C \\
    ${spec.options.flatMap((o) => optionSpecs(o, fn)).join(' \\\n    ')} \\
    '1: :->command' \\
    '*:: :->args'
  case $state in
    command) _describe -t commands ${quote(`${spec.program} command`)} commands ;;
    args)
      case $line[1] in
${cases.join('\n')}
      esac ;;
  esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${spec.program}
fi
`;
}
