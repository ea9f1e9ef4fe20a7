// Fault injection (design: The service): the failures a real API gateway produces, on demand and reproducibly,
// so the client's retries and the engine's create checks can be proven against the real service. The spec
// and its `--faults` text grammar are in fault-spec.ts. app.ts calls `decide` once per routed request, after
// auth, routing and body parsing and before the handler; with no faults configured it never calls anything.
import { checkFaultSpec, FAULT_METHODS, resolveRates, type FaultSpec, type FaultStatus, type ResolvedRates } from './fault-spec.ts';
import { ServiceError, type ErrorCode } from './errors.ts';
import { seededRandom } from './seeded-random.ts';

export { parseFaultSpec, FaultSpecError, type FaultSpec, type FaultRates } from './fault-spec.ts';

/** What app.ts does with one request. */
interface FaultDecision {
  /** Answer this instead of running the handler (5xx, 429): the request changes nothing. */
  reject?: ServiceError;
  /** Destroy the connection, without a response, once the transaction committed. */
  dropAfterCommit?: boolean;
}

export interface FaultInjector {
  decide(method: string, path: string): FaultDecision | Promise<FaultDecision>;
}

const CODE_OF: Record<FaultStatus, ErrorCode> = {
  500: 'ERR_FAULT_INTERNAL',
  502: 'ERR_FAULT_BAD_GATEWAY',
  503: 'ERR_FAULT_UNAVAILABLE',
  504: 'ERR_FAULT_GATEWAY_TIMEOUT',
};

const isActive = (r: ResolvedRates) => r.errorRate > 0 || r.rate429 > 0 || r.dropRate > 0 || r.latencyMs > 0;
// Unref'd: injected latency must not keep a stopping process alive.
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms).unref());

/**
 * The injector for a spec (checked: throws FaultSpecError), or undefined when it injects nothing, so app.ts
 * keeps its plain path. Each request of a faulted method takes exactly two draws whatever the outcome, on
 * arrival, so a run's faults depend only on the seed and the order in which requests arrive.
 */
export function createFaultInjector(spec: FaultSpec): FaultInjector | undefined {
  checkFaultSpec(spec);
  const perMethod = new Map<string, ResolvedRates>();
  for (const m of FAULT_METHODS) {
    const r = resolveRates(spec, m);
    if (isActive(r)) perMethod.set(m, r);
  }
  if (perMethod.size === 0) return undefined;
  const random = seededRandom(spec.seed ?? Math.floor(Math.random() * 0x100000000));

  const draw = (r: ResolvedRates, method: string, path: string): FaultDecision => {
    const u = random();
    const which = random();
    if (u < r.errorRate) {
      const status = r.statuses[Math.floor(which * r.statuses.length)]!;
      return { reject: new ServiceError(CODE_OF[status], `injected fault: ${status} for ${method} ${path.slice(0, 200)}; nothing was changed`) };
    }
    if (u < r.errorRate + r.rate429) {
      return {
        reject: new ServiceError('ERR_RATE_LIMITED', `injected fault: rate limited; retry after ${r.retryAfterSeconds} s`, { 'Retry-After': String(r.retryAfterSeconds) }),
      };
    }
    return u < r.errorRate + r.rate429 + r.dropRate ? { dropAfterCommit: true } : {};
  };

  return {
    decide(method, path) {
      const r = perMethod.get(method);
      if (!r) return {};
      const decision = draw(r, method, path);
      return r.latencyMs > 0 ? sleep(r.latencyMs).then(() => decision) : decision;
    },
  };
}
