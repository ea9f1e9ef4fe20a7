// A repository of three stacks with real git history, for the action over several stacks: `infra/edge/staging`,
// `infra/edge/prod` (which applies after staging) and `infra/partners`, each a stack root with its own
// edgeops.yaml. The test writes manifests and commits; the pull-request events name real base commits, as the
// action compares a pull request's base with the checkout to find the stacks it changes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { expect } from 'vitest';
import { api, type TestService } from '../helpers/service.ts';
import { fileTempDir } from '../helpers/temp-dirs.ts';
import type { GitHubStub } from './github-stub.ts';
import { push, runAction, type ActionRun, type Doc, type EventSpec } from './harness.ts';

export const STAGING = 'infra/edge/staging';
export const PROD = 'infra/edge/prod';
export const PARTNERS = 'infra/partners';

export interface StacksRepo {
  dir: string;
  /** The stack names: `${prefix}-staging`, `${prefix}-prod`, `${prefix}-partners`. */
  names: { staging: string; prod: string; partners: string };
  /** Writes a stack root's manifests (one file, all.yaml). */
  docs(root: string, docs: Doc[]): void;
  /** Writes a file, relative to the repository. */
  write(path: string, text: string): void;
  /** Removes a directory of the repository (a stack root). */
  remove(path: string): void;
  /** Commits everything; returns the commit's sha. */
  commit(message: string): string;
}

function git(dir: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=edgeops test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/**
 * The three stack roots with their edgeops.yaml (stack names from `prefix`; `config` adds lines to one root's
 * file, an api_url for instance), no manifests yet, on a branch `main` with no commit.
 */
export function stacksRepo(prefix: string, config: Record<string, string> = {}): StacksRepo {
  const dir = fileTempDir('edgeops-action-stacks-');
  git(dir, ['init', '-q', '-b', 'main']);
  const names = { staging: `${prefix}-staging`, prod: `${prefix}-prod`, partners: `${prefix}-partners` };
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  write(`${STAGING}/edgeops.yaml`, `stack: ${names.staging}\nenvironment: staging\n${config[STAGING] ?? ''}`);
  write(`${PROD}/edgeops.yaml`, `stack: ${names.prod}\nenvironment: production\nafter: [../staging]\n${config[PROD] ?? ''}`);
  write(`${PARTNERS}/edgeops.yaml`, `stack: ${names.partners}\n${config[PARTNERS] ?? ''}`);
  return {
    dir,
    names,
    docs: (root, docs) => write(`${root}/all.yaml`, docs.map((d) => stringify(d)).join('---\n')),
    write,
    remove: (path) => rmSync(join(dir, path), { recursive: true, force: true }),
    commit(message) {
      git(dir, ['add', '-A']);
      git(dir, ['commit', '-q', '-m', message]);
      return git(dir, ['rev-parse', 'HEAD']);
    },
  };
}

/** A pull_request event whose base and head are commits of the repository. */
export const pullRequestOf = (number: number, base: string, head: string): EventSpec => ({
  name: 'pull_request',
  payload: {
    number,
    pull_request: { number, head: { sha: head, ref: `feature-${number}` }, base: { sha: base, ref: 'main' } },
    repository: { default_branch: 'main' },
  },
  ref: `refs/pull/${number}/merge`,
  sha: head,
});

export const ok = (run: ActionRun): void => expect(run.code, run.stdout + run.stderr).toBe(0);

/** The descriptions of the stack's live backends, sorted. */
export async function backends(svc: TestService, stack: string): Promise<string[]> {
  const all = (await api(svc).listAll('/backends/tunnel_group', 'backends')) as { description?: string; metadata?: string }[];
  return all.filter((b) => (b.metadata ?? '').includes(`"stack":"${stack}"`)).map((b) => b.description ?? '').sort();
}

/**
 * The repository with `docs` in each stack, committed and applied by a push with no pull request (on-stale:
 * replan applies fresh plans of every stack); returns the commit.
 */
export async function applyFirstCommit(repo: StacksRepo, docs: Doc[], inputs: Record<string, string>, gh: GitHubStub): Promise<string> {
  for (const root of [STAGING, PROD, PARTNERS]) repo.docs(root, docs);
  const base = repo.commit('three stacks');
  ok(await runAction({ event: push('main', base), inputs: { ...inputs, 'on-stale': 'replan' }, cwd: repo.dir, github: gh }));
  return base;
}
