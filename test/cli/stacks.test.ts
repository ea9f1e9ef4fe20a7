// `edgeops stacks` as a user runs it, in a repository made here with git history: the stack roots and their
// inputs, and with --changed-since which stacks a change touches (a manifest, a `{file:}` certificate, an
// edgeops.yaml, an untracked file) and which stack roots were removed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileTempDir } from '../helpers/temp-dirs.ts';
import { edgeops } from './run.ts';

const policy = (name: string): string => `kind: IPPolicy\nname: ${name}\naction: allow\n`;
const FILES: Record<string, string> = {
  'infra/edge/staging/edgeops.yaml': 'stack: edge-staging\nenvironment: staging\n',
  'infra/edge/staging/policies.yaml': policy('office'),
  'infra/edge/prod/edgeops.yaml': 'stack: edge-prod\nenvironment: production\nafter: [../staging]\n',
  'infra/edge/prod/policies.yaml': policy('office'),
  'infra/edge/prod/cert.yaml': 'kind: TLSCertificate\nname: www\ncertificate_pem: {file: certs/www.pem}\nprivate_key_pem: {env: WWW_KEY}\n',
  'infra/edge/prod/certs/www.pem': 'a certificate\n',
  'infra/partners/edgeops.yaml': 'stack: partners\n',
  'infra/partners/p.yaml': policy('partner'),
  'README.md': '# infra\n',
};

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });
const write = (cwd: string, path: string, text: string): void => {
  mkdirSync(dirname(join(cwd, path)), { recursive: true });
  writeFileSync(join(cwd, path), text);
};

/** A repository with FILES committed on main and a branch `change` checked out. */
function repository(): string {
  const cwd = fileTempDir('edgeops-stacks-');
  for (const [path, text] of Object.entries(FILES)) write(cwd, path, text);
  git(cwd, 'init', '-q', '-b', 'main');
  git(cwd, 'add', '.');
  git(cwd, 'commit', '-q', '-m', 'three stacks');
  git(cwd, 'checkout', '-q', '-b', 'change');
  return cwd;
}

async function stacksJson(cwd: string, ...args: string[]): Promise<Array<Record<string, unknown>>> {
  const r = await edgeops(['stacks', ...args, '--format', 'json'], { cwd });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { stacks: Array<Record<string, unknown>> }).stacks;
}

const changed = async (cwd: string): Promise<Record<string, unknown>> =>
  Object.fromEntries((await stacksJson(cwd, '--changed-since', 'main')).map((s) => [s.dir, s.removed ? 'removed' : s.changed]));

describe('edgeops stacks', () => {
  it('lists every stack root with its inputs, from anywhere in the repository', async () => {
    const cwd = repository();
    const stacks = await stacksJson(join(cwd, 'infra', 'edge'), '..');
    expect(stacks).toEqual([
      {
        dir: 'infra/edge/prod', stack: 'edge-prod', environment: 'production', after: ['infra/edge/staging'],
        inputs: ['infra/edge/prod/cert.yaml', 'infra/edge/prod/certs/www.pem', 'infra/edge/prod/edgeops.yaml', 'infra/edge/prod/policies.yaml'],
        changed: null, removed: false,
      },
      { dir: 'infra/edge/staging', stack: 'edge-staging', environment: 'staging', after: [], inputs: ['infra/edge/staging/edgeops.yaml', 'infra/edge/staging/policies.yaml'], changed: null, removed: false },
      { dir: 'infra/partners', stack: 'partners', environment: null, after: [], inputs: ['infra/partners/edgeops.yaml', 'infra/partners/p.yaml'], changed: null, removed: false },
    ]);
    const text = await edgeops(['stacks', 'infra'], { cwd });
    expect(text.stdout.split('\n')).toEqual([
      'DIRECTORY           STACK         ENVIRONMENT  AFTER               INPUTS',
      'infra/edge/prod     edge-prod     production   infra/edge/staging  4',
      'infra/edge/staging  edge-staging  staging      -                   2',
      'infra/partners      partners      -            -                   2',
      '',
    ]);
  });

  it('marks the stacks a manifest, a {file:} certificate, an edgeops.yaml or an untracked file changed', async () => {
    const cwd = repository();
    expect(await changed(cwd)).toEqual({ 'infra/edge/prod': false, 'infra/edge/staging': false, 'infra/partners': false });
    write(cwd, 'README.md', '# infra, described\n');
    expect(await changed(cwd)).toEqual({ 'infra/edge/prod': false, 'infra/edge/staging': false, 'infra/partners': false });

    write(cwd, 'infra/edge/prod/certs/www.pem', 'a renewed certificate\n');
    git(cwd, 'commit', '-qam', 'renew the certificate');
    expect(await changed(cwd)).toEqual({ 'infra/edge/prod': true, 'infra/edge/staging': false, 'infra/partners': false });

    write(cwd, 'infra/partners/edgeops.yaml', 'stack: partners\nconcurrency: 2\n');
    write(cwd, 'infra/edge/staging/more/new.yaml', policy('new'));
    expect(await changed(cwd)).toEqual({ 'infra/edge/prod': true, 'infra/edge/staging': true, 'infra/partners': true });

    const text = await edgeops(['stacks', '--changed-since', 'main'], { cwd });
    expect(text.stdout.split('\n')[0]).toMatch(/^DIRECTORY +STACK +ENVIRONMENT +AFTER +INPUTS +CHANGED$/);
    expect(text.stdout).toMatch(/^infra\/edge\/staging .* 3 +yes$/m);
  });

  it('counts a changed manifest whatever the merge base moved to since', async () => {
    const cwd = repository();
    write(cwd, 'infra/edge/staging/policies.yaml', policy('office-2'));
    git(cwd, 'commit', '-qam', 'staging change');
    git(cwd, 'checkout', '-q', 'main');
    write(cwd, 'infra/partners/p.yaml', policy('partner-2'));
    git(cwd, 'commit', '-qam', 'partners change on main');
    git(cwd, 'checkout', '-q', 'change');
    // The partners change is main's, not this branch's: only staging changed since the merge base.
    expect(await changed(cwd)).toEqual({ 'infra/edge/prod': false, 'infra/edge/staging': true, 'infra/partners': false });
  });

  it('lists a removed stack root with the stack it had', async () => {
    const cwd = repository();
    rmSync(join(cwd, 'infra/partners'), { recursive: true });
    git(cwd, 'commit', '-qam', 'retire partners');
    const stacks = await stacksJson(cwd, '--changed-since', 'main');
    expect(stacks.find((s) => s.dir === 'infra/partners')).toEqual({
      dir: 'infra/partners', stack: 'partners', environment: null, after: [], inputs: [], changed: true, removed: true,
    });
    const text = await edgeops(['stacks', '--changed-since', 'main'], { cwd });
    expect(text.stdout).toMatch(/^infra\/partners +partners +- +- +- +removed$/m);
  });

  it('refuses two stack roots naming one stack, and an unknown ref', async () => {
    const cwd = repository();
    write(cwd, 'infra/partners/edgeops.yaml', 'stack: edge-prod\n');
    const twice = await edgeops(['stacks'], { cwd });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('infra/partners/edgeops.yaml:1:8: stack: "edge-prod" is also the stack of infra/edge/prod/edgeops.yaml');
    write(cwd, 'infra/partners/edgeops.yaml', 'stack: partners\nafter: [../edge/prod]\n');
    write(cwd, 'infra/edge/staging/edgeops.yaml', 'stack: edge-staging\nafter: [../../partners]\n');
    // A cycle of after is a problem validate reports, at the entry that closes it.
    const cycle = await edgeops(['validate', 'infra'], { cwd });
    expect(cycle.code).toBe(1);
    expect(cycle.stderr).toContain('infra/edge/prod/edgeops.yaml:3:9: after: a cycle: infra/edge/prod -> infra/edge/staging -> infra/partners -> infra/edge/prod (no stack could apply first)');
    write(cwd, 'infra/partners/edgeops.yaml', 'stack: partners\n');
    const ref = await edgeops(['stacks', '--changed-since', 'nope'], { cwd });
    expect(ref.code).toBe(1);
    expect(ref.stderr).toContain('--changed-since: git merge-base nope HEAD failed');
  });
});
