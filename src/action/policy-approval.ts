// Which policy exceptions count on a pull request: one the pull request adds or changes (its file is among the
// pull request's files) counts only once one of its policy's owners other than the pull request's author
// approved the pull request (the reviews API; a team owner through its membership). Until then the plan shows
// "exception awaiting approval by @owner" and the violation blocks as if there were no exception.
import { isAbsolute, relative, resolve } from 'node:path';
import type { DesiredState } from '../manifest/document.ts';
import type { ExceptionApproval } from '../policy/exceptions.ts';
import { policiesOf } from '../policy/policy-set.ts';
import { gitHubFor, type GitHubClient } from './github.ts';
import type { Session } from './session.ts';

/** The reviewers whose latest review approves, the author left out. */
async function approvers(gh: GitHubClient, pull: number, author: string | undefined): Promise<string[]> {
  const latest = new Map<string, string>();
  for (const review of await gh.listPullReviews(pull)) {
    const login = review.user?.login;
    // A comment after an approval leaves the approval standing, as GitHub counts it.
    if (login && review.state !== 'COMMENTED' && review.state !== 'PENDING') latest.set(login.toLowerCase(), review.state);
  }
  return [...latest].filter(([login, state]) => state === 'APPROVED' && login !== author?.toLowerCase()).map(([login]) => login);
}

/** Whether `owner` (`@user` or `@org/team`) is one of `logins`. */
async function ownerApproved(gh: GitHubClient, owner: string, logins: readonly string[]): Promise<boolean> {
  const name = owner.replace(/^@/, '');
  const slash = name.indexOf('/');
  if (slash < 0) return logins.includes(name.toLowerCase());
  for (const login of logins) if (await gh.isTeamMember(name.slice(0, slash), name.slice(slash + 1), login)) return true;
  return false;
}

/** The approval rule of this run's pull request, or undefined off a pull request (committed exceptions count). */
export async function exceptionApproval(s: Session, desired: DesiredState): Promise<ExceptionApproval | undefined> {
  const set = policiesOf(desired)?.set;
  const pull = s.github.pullNumber;
  if (!set || set.exceptions.length === 0 || pull === undefined) return undefined;
  const gh = gitHubFor(s, 'policy exceptions cannot be checked for approval, so those the pull request changes do not count');
  const root = s.env.GITHUB_WORKSPACE ? resolve(s.env.GITHUB_WORKSPACE) : s.cwd;
  const inRepo = (file: string): string => relative(root, isAbsolute(file) ? file : resolve(s.cwd, file)).split('\\').join('/');
  const changed = gh ? new Set(await gh.listPullFiles(pull)) : undefined;
  const logins = gh ? await approvers(gh, pull, s.github.pullAuthor) : [];
  const approved = new Map<string, boolean>();
  for (const e of set.exceptions) {
    if (changed && !changed.has(inRepo(e.doc.pos.file))) continue;
    const owners = set.policies.find((p) => p.policy.name === e.policy)?.policy.owners ?? [];
    let ok = false;
    for (const owner of owners) if (gh && (ok = await ownerApproved(gh, owner, logins))) break;
    approved.set(e.name, ok);
  }
  return (exception, policy) => (approved.get(exception.name) === false ? { pending: policy.owners.length > 0 ? policy.owners : ['an owner of the policy (it names none)'] } : {});
}
