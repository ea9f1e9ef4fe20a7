// Asking the service whether hostports are free for this account (the contract's hostport-availability.ts), in
// batches of the most one request may ask. A service that predates the endpoint answers 404 ERR_NOT_FOUND_PATH:
// then there is no answer, and the plan goes on without the check.
import { availabilityPath, HOSTPORT_AVAILABILITY_MAX, readAvailabilityReply } from '../contract/hostport-availability.ts';
import { ApiError } from '../errors.ts';
import type { Api, ClaimAvailability } from './resource-kind.ts';

export async function hostportAvailability(api: Api, hostports: readonly string[]): Promise<ReadonlyMap<string, ClaimAvailability> | undefined> {
  const batches: string[][] = [];
  for (let i = 0; i < hostports.length; i += HOSTPORT_AVAILABILITY_MAX) batches.push(hostports.slice(i, i + HOSTPORT_AVAILABILITY_MAX));
  try {
    const replies = await Promise.all(batches.map(async (batch) => readAvailabilityReply(await api.get(availabilityPath(batch)))));
    return new Map(replies.flatMap((reply) => [...reply]));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.errorCode === 'ERR_NOT_FOUND_PATH') return undefined;
    throw err;
  }
}
