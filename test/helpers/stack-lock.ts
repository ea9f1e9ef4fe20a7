// A stack lock held the way an apply holds it (withStackLock), for tests that need a holder to wait on, refuse
// or take over: held until the test calls release(), which releases the lock itself and then lets
// withStackLock end, so its own release (of a record already gone) runs too.
import type { Api } from '../../src/kinds/resource-kind.ts';
import { withStackLock, type LockOptions, type StackLock } from '../../src/lock/stack-lock.ts';

/** Resolves once the lock is held; rejects as withStackLock does when it is not (refused, interrupted). */
export function holdStackLock(api: Api, stack: string, opts: LockOptions = {}): Promise<StackLock> {
  return new Promise((resolve, reject) => {
    let releaseError: unknown;
    let done!: () => void;
    const released = new Promise<void>((r) => (done = r));
    const run = withStackLock(api, stack, { ...opts, onReleaseError: (err) => (releaseError = err) }, async (lock) => {
      resolve({
        id: lock.id,
        lost: lock.lost,
        async release() {
          await lock.release();
          done();
          await run;
          if (releaseError !== undefined) throw releaseError;
        },
      });
      await released;
    });
    // Once held, the promise is resolved and this changes nothing.
    run.catch(reject);
  });
}
