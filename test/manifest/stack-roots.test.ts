// The stack roots under a set of paths: each root's directory (repository-relative), stack, environment, `after`
// and every file it is made of; what makes roots unusable together, at the edgeops.yaml that says it; and which
// stacks a change since a ref touches, with git history made here.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManifestError } from '../../src/errors.ts';
import { changedSince } from '../../src/manifest/stack-changes.ts';
import { findStackRoots } from '../../src/manifest/stack-roots.ts';
import { writeTree } from './tree.ts';

const policy = (name: string): string => `kind: IPPolicy\nname: ${name}\n`;
const cert = (name: string, file: string): string => `kind: TLSCertificate\nname: ${name}\ncertificate_pem: {file: ${file}}\nprivate_key_pem: {file: key.pem}\n`;

const layout = (): Record<string, string> => ({
  'infra/edge/staging/edgeops.yaml': 'stack: edge-staging\nenvironment: staging\n',
  'infra/edge/staging/policies.yaml': policy('office'),
  'infra/edge/prod/edgeops.yaml': 'stack: edge-prod\nenvironment: production\nafter: [../staging]\nprotect: true\n',
  'infra/edge/prod/policies.yaml': policy('office'),
  'infra/edge/prod/tls/cert.yaml': cert('www', 'www.pem'),
  'infra/edge/prod/tls/www.pem': 'not really a certificate\n',
  'infra/edge/prod/tls/key.pem': 'not really a key\n',
  'infra/partners/edgeops.yml': 'retire: true\n',
  'infra/partners/p.yaml': policy('partner'),
  'infra/partners/README.md': '# notes\n',
  'docs/readme.yaml': 'not: a stack\n',
});

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ManifestError);
    return (err as Error).message;
  }
  throw new Error('expected an error');
}

describe('findStackRoots', () => {
  it('finds every root below a path, with repository-relative dirs and inputs', () => {
    const cwd = writeTree(layout());
    mkdirSync(join(cwd, '.git'));
    const found = findStackRoots(['.'], join(cwd, 'infra'));
    expect(found.roots.map((r) => ({ dir: r.dir, stack: r.stack, environment: r.environment, after: r.after, protect: r.protect, retire: r.retire, inputs: r.inputs }))).toEqual([
      {
        dir: 'infra/edge/prod', stack: 'edge-prod', environment: 'production', after: ['infra/edge/staging'], protect: true, retire: false,
        inputs: ['infra/edge/prod/edgeops.yaml', 'infra/edge/prod/policies.yaml', 'infra/edge/prod/tls/cert.yaml', 'infra/edge/prod/tls/key.pem', 'infra/edge/prod/tls/www.pem'],
      },
      { dir: 'infra/edge/staging', stack: 'edge-staging', environment: 'staging', after: [], protect: false, retire: false, inputs: ['infra/edge/staging/edgeops.yaml', 'infra/edge/staging/policies.yaml'] },
      { dir: 'infra/partners', stack: 'default', environment: null, after: [], protect: false, retire: true, inputs: ['infra/partners/edgeops.yml', 'infra/partners/p.yaml'] },
    ]);
    expect(found.loose).toEqual([]);
  });

  it('resolves a path inside a root to that root, and reports manifests that belong to no root', () => {
    const cwd = writeTree(layout());
    expect(findStackRoots(['infra/edge/prod/tls/cert.yaml'], cwd).roots.map((r) => r.dir)).toEqual(['infra/edge/prod']);
    const found = findStackRoots(['.'], cwd);
    expect(found.roots.map((r) => r.dir)).toEqual(['infra/edge/prod', 'infra/edge/staging', 'infra/partners']);
    expect(found.loose).toEqual(['docs/readme.yaml']);
  });

  it('gives a deeper root its own files: the outer stack stops where it begins', () => {
    const cwd = writeTree({ 'edgeops.yaml': 'stack: outer\n', 'a.yaml': policy('a'), 'team/edgeops.yaml': 'stack: team\n', 'team/t.yaml': policy('t') });
    const found = findStackRoots(['.'], cwd);
    expect(found.roots.map((r) => [r.dir, r.inputs])).toEqual([
      ['.', ['a.yaml', 'edgeops.yaml']],
      ['team', ['team/edgeops.yaml', 'team/t.yaml']],
    ]);
  });

  it('refuses two roots naming one stack, naming both files', () => {
    const cwd = writeTree({ 'a/edgeops.yaml': 'stack: prod\n', 'b/edgeops.yaml': 'concurrency: 2\nstack: prod\n' });
    expect(errorOf(() => findStackRoots(['.'], cwd))).toBe(
      'b/edgeops.yaml:2:8: stack: "prod" is also the stack of a/edgeops.yaml: two stack roots naming one stack would manage the same resources (give each its own stack:)',
    );
    expect(findStackRoots(['.'], cwd, { allowSameStack: true }).roots).toHaveLength(2);
  });

  it('refuses an after that names no stack root, at its position, and a cycle, naming it', () => {
    const notRoot = writeTree({ 'a/edgeops.yaml': 'stack: a\nafter:\n  - ../b\n', 'b/x.yaml': policy('x') });
    expect(errorOf(() => findStackRoots(['.'], notRoot))).toBe('a/edgeops.yaml:3:5: after: b is not a stack root (a directory with an edgeops.yaml)');
    const cycle = writeTree({ 'a/edgeops.yaml': 'stack: a\nafter: [../c]\n', 'b/edgeops.yaml': 'stack: b\nafter: [../a]\n', 'c/edgeops.yaml': 'stack: c\nafter: [../b]\n' });
    expect(errorOf(() => findStackRoots(['.'], cycle))).toBe('a/edgeops.yaml:2:9: after: a cycle: a -> c -> b -> a (no stack could apply first)');
  });
});

describe('stack roots of environments', () => {
  const environments = (): Record<string, string> => ({
    'edge/base/edgeops.yaml': 'role: base\nvars: {office: {type: cidr}}\n',
    'edge/base/policies.yaml': 'kind: IPPolicy\nname: office\n---\nkind: IPPolicyRule\nname: office-v4\nip_policy_id: office\ncidr: {var: office}\naction: allow\n',
    'edge/staging/edgeops.yaml': 'stack: edge-staging\nenvironment: staging\nbase: [../base]\nvars: {office: 198.51.100.0/24}\n',
    'edge/prod/edgeops.yaml': 'stack: edge-prod\nenvironment: prod\nbase: [../base]\nvars: {office: 203.0.113.0/24}\n',
    'edge/prod/patches.yaml': 'kind: Patch\ntarget: IPPolicy/office\nset: {description: prod office}\n',
  });

  it('lists the environments, not their base, each made of the base\'s files too', () => {
    const cwd = writeTree(environments());
    try {
      const { roots } = findStackRoots(['edge'], cwd);
      expect(roots.map((r) => [r.dir, r.stack, r.environment])).toEqual([['edge/prod', 'edge-prod', 'prod'], ['edge/staging', 'edge-staging', 'staging']]);
      expect(roots[0]!.inputs).toEqual(['edge/base/edgeops.yaml', 'edge/base/policies.yaml', 'edge/prod/edgeops.yaml', 'edge/prod/patches.yaml']);
      expect(roots[1]!.inputs).toEqual(['edge/base/edgeops.yaml', 'edge/base/policies.yaml', 'edge/staging/edgeops.yaml']);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('changedSince', () => {
  const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' });
  const write = (cwd: string, path: string, text: string): void => {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), text);
  };
  function repo(): string {
    const cwd = writeTree(layout());
    git(cwd, 'init', '-q', '-b', 'main');
    git(cwd, 'add', '.');
    git(cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'base');
    git(cwd, 'checkout', '-q', '-b', 'change');
    return cwd;
  }
  const changedDirs = (cwd: string): string[] => {
    const found = findStackRoots(['.'], cwd);
    return [...changedSince('main', found.repoRoot, found.roots, ['.']).changed].sort();
  };

  it('marks no stack for a change outside every stack input', () => {
    const cwd = repo();
    write(cwd, 'infra/partners/README.md', '# more notes\n');
    write(cwd, 'docs/other.md', 'x\n');
    expect(changedDirs(cwd)).toEqual([]);
  });

  it('marks the stack of a changed manifest, certificate file, edgeops.yaml, untracked or deleted manifest', () => {
    let cwd = repo();
    write(cwd, 'infra/edge/staging/policies.yaml', policy('office2'));
    expect(changedDirs(cwd)).toEqual(['infra/edge/staging']);
    cwd = repo();
    write(cwd, 'infra/edge/prod/tls/www.pem', 'renewed\n');
    git(cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qam', 'renew');
    expect(changedDirs(cwd)).toEqual(['infra/edge/prod']);
    cwd = repo();
    write(cwd, 'infra/partners/edgeops.yml', 'retire: false\n');
    expect(changedDirs(cwd)).toEqual(['infra/partners']);
    cwd = repo();
    write(cwd, 'infra/edge/staging/new/extra.yaml', policy('extra'));
    expect(changedDirs(cwd)).toEqual(['infra/edge/staging']);
    cwd = repo();
    rmSync(join(cwd, 'infra/partners/p.yaml'));
    expect(changedDirs(cwd)).toEqual(['infra/partners']);
  });

  it('lists a removed stack root with the settings it had at the merge base', () => {
    const cwd = repo();
    rmSync(join(cwd, 'infra/edge/staging'), { recursive: true });
    write(cwd, 'infra/edge/prod/edgeops.yaml', 'stack: edge-prod\n');
    const found = findStackRoots(['infra'], cwd);
    const changes = changedSince('main', found.repoRoot, found.roots, ['infra']);
    expect(changes.removed.map((r) => [r.dir, r.stack, r.environment, r.projectFile])).toEqual([
      ['infra/edge/staging', 'edge-staging', 'staging', 'infra/edge/staging/edgeops.yaml'],
    ]);
    expect(changedSince('main', found.repoRoot, found.roots, ['infra/partners']).removed).toEqual([]);
  });

  it('names the ref git cannot find', () => {
    const cwd = repo();
    const found = findStackRoots(['.'], cwd);
    expect(() => changedSince('no-such-ref', found.repoRoot, found.roots, ['.'])).toThrow(/^--changed-since: git merge-base no-such-ref HEAD failed: /);
  });
});
