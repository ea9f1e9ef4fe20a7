// GET /hostports/availability: whether hostports are free for the caller's account (the contract's
// hostport-availability.ts). Read from the claims every edge kind shares (hostports.ts), on the request's read
// snapshot; a holder in another account is only ever "outside", never named.
import {
  HOSTPORT_AVAILABILITY_MAX, HOSTPORT_AVAILABILITY_PARAM, HOSTPORT_AVAILABILITY_PATH,
  type HostportAvailability, type HostportAvailabilityReply,
} from '../../contract/hostport-availability.ts';
import { hostportProblem } from '../../contract/values.ts';
import { ServiceError, ruleViolation } from '../errors.ts';
import { hostportClaims } from '../hostports.ts';
import { ok, type ResourceModule } from '../resource-def.ts';

const hostportAvailability: ResourceModule = {
  kinds: [],
  routes: [
    {
      method: 'GET',
      path: HOSTPORT_AVAILABILITY_PATH,
      handler: async (ctx) => {
        for (const key of ctx.query.keys()) {
          if (key !== HOSTPORT_AVAILABILITY_PARAM) {
            throw new ServiceError('ERR_QUERY_UNKNOWN_PARAM', `unknown query parameter ${JSON.stringify(key.slice(0, 80))}; allowed: ${HOSTPORT_AVAILABILITY_PARAM} (repeated, one per hostport)`);
          }
        }
        const asked = ctx.query.getAll(HOSTPORT_AVAILABILITY_PARAM);
        if (asked.length === 0 || asked.length > HOSTPORT_AVAILABILITY_MAX) {
          throw new ServiceError('ERR_FIELD_INVALID', `${HOSTPORT_AVAILABILITY_PARAM}: give 1 to ${HOSTPORT_AVAILABILITY_MAX} hostports, as ?${HOSTPORT_AVAILABILITY_PARAM}=host:port&${HOSTPORT_AVAILABILITY_PARAM}=...; got ${asked.length}`);
        }
        asked.forEach((hostport, i) => {
          const problem = hostportProblem(hostport);
          if (problem) throw ruleViolation(problem, `${HOSTPORT_AVAILABILITY_PARAM}[${i}]`);
        });
        const reply: HostportAvailabilityReply = { hostports: [] };
        for (const [i, claim] of hostportClaims(asked).entries()) {
          const holder = await ctx.tx.claimHolder(claim.scope, claim.key);
          const availability: HostportAvailability = !holder ? 'free' : holder.sameAccount ? 'held_in_account' : 'held_outside_account';
          reply.hostports.push({ hostport: asked[i]!, availability });
        }
        return ok(reply);
      },
    },
  ],
};

export default hostportAvailability;
