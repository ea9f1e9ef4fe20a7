// What faults the service injects (faults.ts injects them): the FaultSpec of startService's `faults` option,
// and its text form for `edgeops serve --faults SPEC`, checked the same way.
//
// SPEC grammar (parseFaultSpec), items separated by ",", whitespace around items ignored:
//   error=P          probability of a 5xx answered BEFORE the handler runs: the request changes nothing
//   status=S|S|...   the 5xx statuses drawn from, uniformly: 500, 502, 503, 504 (default 500|502|503)
//   rate429=P        probability of a 429 ERR_RATE_LIMITED, also answered before the handler runs
//   retryAfter=N     Retry-After seconds sent with those 429s, integer 0-3600 (default 1)
//   latency=MS       milliseconds added to every request of a faulted method, integer 0-60000
//   drop=P           probability of "commit then drop": the handler runs and its transaction commits, then
//                    the connection is destroyed without a response (the client sees a reset)
//   methods=M|M|...  the methods the values above apply to: GET, POST, PATCH, PUT, DELETE (default all)
//   seed=N           PRNG seed, integer 0-4294967295 (default random): the same seed and the same sequence of
//                    requests give the same faults
//   METHOD.KEY=V     KEY (error, status, rate429, retryAfter, latency, drop) for one method only; overrides the
//                    general value and applies to that method even when `methods` leaves it out
// P is a decimal probability from 0 to 1. One draw per request picks at most one of error, rate429 and drop,
// so their sum must not exceed 1 for any method. Each key at most once.
// Example: error=0.2,status=500|502|503,rate429=0.05,retryAfter=1,latency=10,drop=0.05,methods=POST|PATCH|PUT|DELETE,seed=42
import type { Method } from './resource-def.ts';

export const FAULT_METHODS: readonly Method[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
const FAULT_STATUSES = [500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** The faults of one method. Probabilities are from 0 to 1. */
export interface FaultRates {
  /** Probability of a 5xx (one of `statuses`) answered before the handler runs. */
  errorRate?: number;
  statuses?: FaultStatus[];
  /** Probability of a 429 with Retry-After, answered before the handler runs. */
  rate429?: number;
  retryAfterSeconds?: number;
  /** Added to each request of the method before it is handled. */
  latencyMs?: number;
  /** Probability that the connection is dropped after the handler's transaction committed. */
  dropRate?: number;
}

export interface FaultSpec extends FaultRates {
  /** Methods the general values apply to; default all. */
  methods?: Method[];
  /** Per-method values overriding the general ones (and applying whatever `methods` says). */
  byMethod?: Partial<Record<Method, FaultRates>>;
  /** PRNG seed for reproducible runs; default random. */
  seed?: number;
}

/** The values in force for one method, defaults filled in. */
export type ResolvedRates = Required<FaultRates>;

export class FaultSpecError extends Error {
  readonly code = 'E_FAULT_SPEC';
  constructor(message: string) {
    super(message);
    this.name = 'FaultSpecError';
  }
}

const DEFAULTS: ResolvedRates = { errorRate: 0, statuses: [500, 502, 503], rate429: 0, retryAfterSeconds: 1, latencyMs: 0, dropRate: 0 };

export function resolveRates(spec: FaultSpec, method: Method): ResolvedRates {
  const general: FaultRates = !spec.methods || spec.methods.includes(method) ? spec : {};
  const own = spec.byMethod?.[method] ?? {};
  return {
    errorRate: own.errorRate ?? general.errorRate ?? DEFAULTS.errorRate,
    rate429: own.rate429 ?? general.rate429 ?? DEFAULTS.rate429,
    latencyMs: own.latencyMs ?? general.latencyMs ?? DEFAULTS.latencyMs,
    dropRate: own.dropRate ?? general.dropRate ?? DEFAULTS.dropRate,
    // Settings of a fault rather than faults themselves: the general ones hold for every method.
    statuses: own.statuses ?? spec.statuses ?? DEFAULTS.statuses,
    retryAfterSeconds: own.retryAfterSeconds ?? spec.retryAfterSeconds ?? DEFAULTS.retryAfterSeconds,
  };
}

/** Throws FaultSpecError naming the first bad value. */
export function checkFaultSpec(spec: FaultSpec): void {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw new FaultSpecError('faults must be an object');
  const rates = (r: FaultRates, where: string) => {
    for (const key of ['errorRate', 'rate429', 'dropRate'] as const) {
      const p = r[key];
      if (p !== undefined && !(typeof p === 'number' && p >= 0 && p <= 1)) {
        throw new FaultSpecError(`${where}${key} must be a probability from 0 to 1, got ${String(p)}`);
      }
    }
    integerIn(r.latencyMs, 0, 60_000, `${where}latencyMs`);
    integerIn(r.retryAfterSeconds, 0, 3600, `${where}retryAfterSeconds`);
    if (r.statuses !== undefined) {
      if (!Array.isArray(r.statuses) || r.statuses.length === 0) throw new FaultSpecError(`${where}statuses must be a non-empty list of ${FAULT_STATUSES.join(', ')}`);
      for (const s of r.statuses) {
        if (!(FAULT_STATUSES as readonly number[]).includes(s)) throw new FaultSpecError(`${where}statuses: ${String(s)} is not one of ${FAULT_STATUSES.join(', ')}`);
      }
    }
  };
  rates(spec, '');
  for (const m of spec.methods ?? []) if (!FAULT_METHODS.includes(m)) throw new FaultSpecError(`methods: ${String(m)} is not one of ${FAULT_METHODS.join(', ')}`);
  for (const [m, r] of Object.entries(spec.byMethod ?? {})) {
    if (!FAULT_METHODS.includes(m as Method)) throw new FaultSpecError(`byMethod: ${m} is not one of ${FAULT_METHODS.join(', ')}`);
    rates(r ?? {}, `${m}.`);
  }
  integerIn(spec.seed, 0, 0xffffffff, 'seed');
  for (const m of FAULT_METHODS) {
    const r = resolveRates(spec, m);
    const sum = r.errorRate + r.rate429 + r.dropRate;
    if (sum > 1 + 1e-9) throw new FaultSpecError(`${m}: error + rate429 + drop is ${+sum.toFixed(6)}, more than 1`);
  }
}

function integerIn(v: number | undefined, min: number, max: number, what: string): void {
  if (v !== undefined && !(Number.isInteger(v) && v >= min && v <= max)) {
    throw new FaultSpecError(`${what} must be an integer from ${min} to ${max}, got ${String(v)}`);
  }
}

const RATE_KEYS = {
  error: 'errorRate', status: 'statuses', rate429: 'rate429', retryAfter: 'retryAfterSeconds', latency: 'latencyMs', drop: 'dropRate',
} as const satisfies Record<string, keyof FaultRates>;
type RateKey = keyof typeof RATE_KEYS;

/** The text form (grammar above) into a checked FaultSpec. */
export function parseFaultSpec(text: string): FaultSpec {
  const spec: FaultSpec = {};
  const seen = new Set<string>();
  const items = text.split(',').map((s) => s.trim());
  if (items.every((s) => s === '')) throw new FaultSpecError('empty fault spec; expected KEY=VALUE items such as error=0.1,drop=0.05');
  for (const item of items) {
    const m = /^(?:([A-Za-z]+)\.)?([A-Za-z0-9]+)=(.*)$/.exec(item);
    if (!m) throw new FaultSpecError(`${JSON.stringify(item.slice(0, 60))} is not KEY=VALUE or METHOD.KEY=VALUE`);
    const [, methodText, key, value] = m as unknown as [string, string | undefined, string, string];
    const label = methodText ? `${methodText}.${key}` : key;
    if (seen.has(label)) throw new FaultSpecError(`${label} is given twice`);
    seen.add(label);
    if (methodText === undefined && key === 'methods') {
      spec.methods = value.split('|').map((v) => methodOf(v.trim(), 'methods'));
    } else if (methodText === undefined && key === 'seed') {
      spec.seed = integer(value, 'seed');
    } else if (key in RATE_KEYS) {
      const target = methodText === undefined ? spec : ((spec.byMethod ??= {})[methodOf(methodText, label)] ??= {});
      setRate(target, key as RateKey, value, label);
    } else {
      throw new FaultSpecError(`${label}: unknown key; expected ${[...Object.keys(RATE_KEYS), 'methods', 'seed'].join(', ')}${methodText ? ' (methods and seed take no METHOD. prefix)' : ''}`);
    }
  }
  checkFaultSpec(spec);
  return spec;
}

function setRate(target: FaultRates, key: RateKey, value: string, label: string): void {
  switch (key) {
    case 'error':
    case 'rate429':
    case 'drop': {
      if (!/^(?:0|1|0?\.\d+|[01]\.\d*)$/.test(value)) throw new FaultSpecError(`${label}: ${JSON.stringify(value)} is not a probability from 0 to 1`);
      target[RATE_KEYS[key]] = Number(value);
      return;
    }
    case 'status':
      target.statuses = value.split('|').map((v) => integer(v.trim(), label) as FaultStatus);
      return;
    case 'retryAfter':
    case 'latency':
      target[RATE_KEYS[key]] = integer(value, label);
  }
}

function integer(value: string, label: string): number {
  if (!/^\d{1,10}$/.test(value)) throw new FaultSpecError(`${label}: ${JSON.stringify(value.slice(0, 30))} is not a whole number`);
  return Number(value);
}

function methodOf(text: string, label: string): Method {
  const m = text.toUpperCase() as Method;
  if (!FAULT_METHODS.includes(m)) throw new FaultSpecError(`${label}: ${JSON.stringify(text.slice(0, 20))} is not one of ${FAULT_METHODS.join(', ')}`);
  return m;
}
