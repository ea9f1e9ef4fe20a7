// The fish completion script: one `complete` line per command and per option of each command (spec.ts), the
// choices of an option or argument, a Kind/name after --target from `edgeops __complete-targets PATH`.
import { TARGETS_COMMAND, valuedOptions, type CompletionSpec, type OptionSpec } from './spec.ts';

/** Single-quoted for fish: a backslash and a quote escaped. */
const quote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function optionLine(program: string, condition: string, option: OptionSpec, fn: string): string {
  const parts = [`complete -c ${program} -n ${quote(condition)}`];
  for (const name of option.names) parts.push(name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
  if (option.targets) parts.push(`-x -a ${quote(`(${fn}_targets)`)}`);
  else if (option.choices) parts.push(`-x -a ${quote(option.choices.join(' '))}`);
  else if (option.files) parts.push('-r -F');
  else if (option.takesValue) parts.push('-x');
  parts.push(`-d ${quote(option.description)}`);
  return parts.join(' ');
}

export function fishScript(spec: CompletionSpec): string {
  const p = spec.program;
  const fn = `__${p.replace(/[^A-Za-z0-9_]/g, '_')}`;
  const lines = [`complete -c ${p} -f`];
  for (const o of spec.options) lines.push(optionLine(p, '__fish_use_subcommand', o, fn));
  for (const c of spec.commands) lines.push(`complete -c ${p} -n '__fish_use_subcommand' -a ${quote(c.name)} -d ${quote(c.description)}`);
  for (const c of spec.commands) {
    const when = `__fish_seen_subcommand_from ${c.name}`;
    for (const o of c.options) lines.push(optionLine(p, when, o, fn));
    const choices = c.args[0]?.choices;
    if (choices) lines.push(`complete -c ${p} -n ${quote(when)} -a ${quote(choices.join(' '))}`);
    else if (c.args.length > 0) lines.push(`complete -c ${p} -n ${quote(when)} -F`);
  }
  return `# fish completion for ${p}: ${p} completion fish | source, or save it as ~/.config/fish/completions/${p}.fish
# Generated from the commands and options of this version of ${p}.

# The Kind/name of the documents under the command line's first operand (its PATH), or under the current directory.
function ${fn}_targets
    set -l words (commandline -opc)
    set -l cmd
    set -l valued
    set -l dir .
    set -l skip 0
    for w in $words[2..-1]
        if test $skip = 1
            set skip 0
        else if contains -- $w $valued
            set skip 1
        else if string match -q -- '-*' $w
            continue
        else if test -z "$cmd"
            set cmd $w
            switch $cmd
${spec.commands.map((c) => `                case ${quote(c.name)}\n                    set valued ${valuedOptions(c).join(' ')}`).join('\n')}
            end
        else
            set dir $w
            break
        end
    end
    $words[1] ${TARGETS_COMMAND} $dir 2>/dev/null
end

${lines.join('\n')}
`;
}
