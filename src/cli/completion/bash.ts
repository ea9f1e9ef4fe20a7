// The bash completion script: a function that completes the command names, each command's options, the
// choices of an option or argument that has them, a Kind/name after --target (asked of
// `edgeops __complete-targets PATH`, PATH being the command line's first operand, else the current
// directory), and file names for paths. `--opt=value` is understood (bash splits it at "=").
import { TARGETS_COMMAND, valuedOptions, type CompletionSpec } from './spec.ts';

/** A word list for compgen -W inside double quotes: the words never hold quotes, `$` or backquotes. */
const words = (list: readonly string[]): string => list.join(' ');

/** A case pattern, quoted. */
const pattern = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export function bashScript(spec: CompletionSpec): string {
  const fn = `_${spec.program.replace(/[^A-Za-z0-9_]/g, '_')}_complete`;
  const commandCases = spec.commands.map((cmd) =>
    `    ${pattern(cmd.name)}) opts="${words(cmd.options.flatMap((o) => o.names))}"; valued=" ${words(valuedOptions(cmd))} " ;;`);
  const valueCases: string[] = [];
  for (const cmd of spec.commands) {
    for (const o of cmd.options) {
      if (!o.takesValue) continue;
      const names = o.names.map((n) => pattern(`${cmd.name} ${n}`)).join('|');
      if (o.targets) valueCases.push(`    ${names}) ${fn}_targets; return ;;`);
      else if (o.choices) valueCases.push(`    ${names}) COMPREPLY=($(compgen -W "${words(o.choices)}" -- "$cur")); return ;;`);
      else if (o.files) valueCases.push(`    ${names}) COMPREPLY=($(compgen -f -- "$cur")); return ;;`);
      else valueCases.push(`    ${names}) return ;;`);
    }
  }
  const argCases = spec.commands.flatMap((cmd) => {
    const choices = cmd.args[0]?.choices;
    if (choices) return [`    ${pattern(cmd.name)}) COMPREPLY=($(compgen -W "${words(choices)}" -- "$cur")); return ;;`];
    return cmd.args.length === 0 ? [`    ${pattern(cmd.name)}) return ;;`] : [];
  });
  return `# bash completion for ${spec.program}: source <(${spec.program} completion bash)
# Generated from the commands and options of this version of ${spec.program}.

# The Kind/name of the documents under the command line's first operand (its PATH), or under the current directory.
${fn}_targets() {
  local path=. i w skip=
  for ((i = cmd_at + 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    if [[ -n $skip ]]; then skip=; continue; fi
    if [[ $valued == *" $w "* ]]; then skip=1; continue; fi
    if [[ $w == -* || $w == = ]]; then continue; fi
    path="$w"
    break
  done
  COMPREPLY=($(compgen -W "$("\${COMP_WORDS[0]}" ${TARGETS_COMMAND} "$path" 2>/dev/null)" -- "$cur"))
}

${fn}() {
  local cur prev cmd= cmd_at=0 i opts= valued=
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  # --format=json arrives as "--format" "=" "json": the option is the word before the "=".
  if [[ $cur == = ]]; then cur=;
  elif [[ $prev == = ]]; then prev="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      -*) ;;
      *) cmd="\${COMP_WORDS[i]}"; cmd_at=$i; break ;;
    esac
  done
  if [[ -z $cmd ]]; then
    if [[ $cur == -* ]]; then
      COMPREPLY=($(compgen -W "${words(spec.options.flatMap((o) => o.names))}" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "${words(spec.commands.map((c) => c.name))}" -- "$cur"))
    fi
    return
  fi
  case "$cmd" in
${commandCases.join('\n')}
  esac
  case "$cmd $prev" in
${valueCases.join('\n')}
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi
  case "$cmd" in
${argCases.join('\n')}
  esac
  COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -F ${fn} ${spec.program}
`;
}
