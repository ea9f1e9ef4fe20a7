// `edgeops completion bash|zsh|fish`: the scripts run in the real shells. bash completes through its function
// with COMP_WORDS/COMP_CWORD set as bash sets them; fish through `complete -C`; zsh through a real interactive
// zsh driven over a pseudo-terminal (zpty), the completion system loaded. The scripts call back into the real
// CLI (`edgeops __complete-targets`) through an `edgeops` on PATH. Where zsh or fish is not installed, their
// scripts are checked for what they must hold instead.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeops, output, ROOT } from './run.ts';

const has = (shell: string): boolean => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

let dir: string;
let env: NodeJS.ProcessEnv;
const scripts: Record<string, string> = {};
/** The commands `edgeops --help` lists: the scripts must complete each of them. */
let helpCommands: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgeops-completion-'));
  // `edgeops` as a user has it on PATH: the real bin.
  writeFileSync(join(dir, 'edgeops'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/edgeops.js')}" "$@"\n`);
  chmodSync(join(dir, 'edgeops'), 0o755);
  // Manifests in the directory the shell runs in: --target without a PATH offers these.
  writeFileSync(join(dir, 'here.yaml'), 'kind: IPPolicy\nname: office\n---\nkind: TunnelGroupBackend\nname: web\n');
  env = { ...process.env, PATH: `${dir}:${process.env.PATH}`, HOME: dir };
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await edgeops(['completion', shell]);
    expect(r.code, output(r)).toBe(0);
    scripts[shell] = r.stdout;
    writeFileSync(join(dir, `script.${shell}`), r.stdout);
  }
  const help = await edgeops(['--help']);
  const section = help.stdout.slice(help.stdout.indexOf('Commands:'), help.stdout.indexOf('Exit codes:'));
  helpCommands = [...section.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]!).filter((c) => c !== 'Commands:');
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The line each case types, and what completing its last word must offer (exactly). */
const CASES: [string, string[]][] = [
  ['edgeops pl', ['plan']],
  ['edgeops plan --for', ['--format']],
  ['edgeops plan --format ', ['json', 'markdown', 'text']],
  ['edgeops graph --format ', ['dot', 'mermaid']],
  ['edgeops completion ', ['bash', 'fish', 'zsh']],
  // --target: the documents under the command line's PATH (past an option's value), else under the current directory.
  [`edgeops plan --stack x ${join(ROOT, 'examples/full')} --target TCP`, ['TCPEdge/mqtt']],
  [`edgeops apply ${join(ROOT, 'examples/full')} --target IPPolicyRule/t`, ['IPPolicyRule/trusted-v4', 'IPPolicyRule/trusted-v6']],
  ['edgeops plan --target ', ['IPPolicy/office', 'TunnelGroupBackend/web']],
];

/** Words as bash's completion splits a command line: a trailing space starts an empty word. */
const wordsOf = (line: string): string[] => (line.endsWith(' ') ? [...line.trim().split(/\s+/), ''] : line.split(/\s+/));

function bashComplete(line: string): string[] {
  const words = wordsOf(line).map((w) => `'${w}'`).join(' ');
  const out = execFileSync('bash', ['-c', `source ./script.bash
COMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); COMPREPLY=()
_edgeops_complete
printf '%s\\n' "\${COMPREPLY[@]}"`], { cwd: dir, env, encoding: 'utf8' });
  return out.split('\n').filter((l) => l !== '').sort();
}

describe('bash', () => {
  it.each(CASES)('%j completes to %j', (line, expected) => {
    expect(bashComplete(line)).toEqual(expected);
  });

  it('is generated from the program: every command of the help, none hidden, and --opt=value', () => {
    expect(helpCommands).toEqual(expect.arrayContaining(['validate', 'plan', 'apply', 'graph', 'completion']));
    expect(bashComplete('edgeops ').filter((c) => c !== 'help')).toEqual([...helpCommands].filter((c) => c !== 'help').sort());
    expect(scripts.bash).not.toMatch(/\b__complete-targets'\)/);
    expect(bashComplete('edgeops graph --format = d')).toEqual(['dot']);
    // Every option of a command, e.g. graph's own and the shared ones.
    expect(bashComplete('edgeops graph --')).toEqual(expect.arrayContaining(['--format', '--plan', '--local', '--api-url', '--adopt', '--help']));
  });
});

describe('zsh', () => {
  it('loads, registers _edgeops, and completes as bash does', () => {
    if (!has('zsh')) {
      // No zsh here: the script must still be a complete #compdef function for every command.
      expect(scripts.zsh).toMatch(/^#compdef edgeops\n/);
      expect(scripts.zsh).toContain('compdef _edgeops edgeops');
      for (const c of helpCommands) expect(scripts.zsh).toContain(`'${c}:`);
      expect(scripts.zsh).toContain("'--format[output format]:format:(text json markdown)'");
      return;
    }
    expect(spawnSync('zsh', ['-n', join(dir, 'script.zsh')]).status).toBe(0);
    const loaded = execFileSync('zsh', ['-f', '-c', `autoload -Uz compinit; compinit -u -d ${dir}/.zcompdump; source ./script.zsh; print -r -- $_comps[edgeops]`], { cwd: dir, env, encoding: 'utf8' });
    expect(loaded.trim()).toBe('_edgeops');
    // An interactive zsh on a pseudo-terminal; compadd is wrapped to print what it is given.
    writeFileSync(join(dir, 'drive.zsh'), `zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT=; RPROMPT=; autoload -Uz compinit; compinit -u -d ${dir}/.zcompdump"
zpty -w z "source ${dir}/script.zsh"
zpty -w z 'compadd() { local -a __hits; builtin compadd -O __hits "$@"; print -r -- "<<\${(j: :)__hits}>>"; builtin compadd "$@" }'
zpty -w z 'print READY'
zpty -r z out '*READY*READY*'
zpty -w -n z "$1"$'\\t'
zpty -r z out '*<<*>>*'
print -r -- "\${\${out##*<<}%%>>*}"
zpty -d z
`);
    for (const [line, expected] of CASES) {
      const got = execFileSync('zsh', ['-f', join(dir, 'drive.zsh'), line], { cwd: dir, env, encoding: 'utf8', timeout: 30_000 });
      expect(got.replace(/\r/g, '').trim().split(/\s+/).filter((w) => w !== '').sort(), line).toEqual(expected);
    }
  }, 120_000);
});

describe('fish', () => {
  it('parses, and completes as bash does', () => {
    if (!has('fish')) {
      expect(scripts.fish).toContain("complete -c edgeops -n '__fish_seen_subcommand_from plan' -l format -x -a 'text json markdown'");
      for (const c of helpCommands) expect(scripts.fish).toContain(`-n '__fish_use_subcommand' -a '${c}'`);
      expect(scripts.fish).toContain('__complete-targets $dir');
      return;
    }
    expect(spawnSync('fish', ['-n', join(dir, 'script.fish')]).status).toBe(0);
    for (const [line, expected] of CASES) {
      const got = execFileSync('fish', ['-c', 'source ./script.fish; complete -C $argv[1]', line], { cwd: dir, env, encoding: 'utf8' });
      expect(got.split('\n').filter((l) => l !== '').map((l) => l.split('\t')[0]).sort(), line).toEqual(expected);
    }
  }, 120_000);
});

describe('edgeops completion and __complete-targets', () => {
  it('--help names the shells and shows how to install each; the program help lists it', async () => {
    const r = await edgeops(['completion', '--help']);
    expect(r.code).toBe(0);
    for (const text of ['Usage: edgeops completion [options] <shell>', '"bash", "zsh", "fish"', 'Examples:',
      '$ source <(edgeops completion bash)', '$ edgeops completion zsh', '$ edgeops completion fish']) expect(r.stdout).toContain(text);
    expect(helpCommands).toContain('completion');
  });

  it('an unknown shell is a usage error naming the choices', async () => {
    const r = await edgeops(['completion', 'powershell']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^edgeops: command-argument value 'powershell' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish\./m);
  });

  it('__complete-targets is hidden, prints sorted addresses, and offers what parses of a half-edited directory', async () => {
    const help = await edgeops(['--help']);
    expect(help.stdout).not.toContain('__complete-targets');
    const half = mkdtempSync(join(tmpdir(), 'edgeops-targets-'));
    try {
      writeFileSync(join(half, 'b.yaml'), 'kind: TCPEdge\nname: ssh\nbackend: {backend_id: nowhere}\n---\nkind: IPPolicy\nname: office\n');
      writeFileSync(join(half, 'c.yaml'), 'kind: IPPolicy\nname: [unclosed\n');
      const r = await edgeops(['__complete-targets', half]);
      expect(r.code, output(r)).toBe(0);
      expect(r.stdout).toBe('IPPolicy/office\nTCPEdge/ssh\n');
    } finally {
      rmSync(half, { recursive: true, force: true });
    }
  });
});
