// Data no configured key can reach: an account's documents stay in the database when its keys leave the
// configuration (data written with --api-key belongs to `default`, and a restart with only --accounts drops
// that key). Nothing is lost, but nothing answers for it either, so start-up says so.
import type { Accounts } from './accounts.ts';
import { DEFAULT_ACCOUNT, type Store } from './store.ts';

/** One warning per account that holds documents and has no configured key, saying how to add one. */
export async function unreachedAccountWarnings(store: Store, accounts: Accounts): Promise<string[]> {
  const counts = await store.documentCounts();
  const warnings: string[] = [];
  for (const [account, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (n === 0 || accounts.reaches(account)) continue;
    const flag = account === DEFAULT_ACCOUNT ? '--api-key' : `--account ${account}=KEY`;
    warnings.push(`account ${account} holds ${n} ${n === 1 ? 'resource' : 'resources'} and no configured key reaches it; add its key with ${flag} or under "${account}:" in accounts.yaml`);
  }
  return warnings;
}
