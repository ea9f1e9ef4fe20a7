// The CEL environments policies are checked and run in: standard CEL (@marcbachmann/cel-js) plus the network
// library (net.ts), and per resource kind an `object` typed from the kind's schema (cel-types.ts).
import { Environment } from '@marcbachmann/cel-js';
import { kindByName } from '../kinds/index.ts';
import { kindSchemas } from '../manifest/schema/kinds.ts';
import { objectDecl, type CelDecl } from './cel-types.ts';
import { CidrValue, IpValue, parseCidr, parseIp } from './net.ts';

/** A value a function refuses (an address that is none): the evaluation fails with this message. */
class CelFunctionError extends Error {}

const ip = (text: string): IpValue => {
  const value = parseIp(text);
  if (!value) throw new CelFunctionError(`ip(): "${text}" is not an IP address`);
  return value;
};
const cidr = (text: string): CidrValue => {
  const value = parseCidr(text);
  if (!value) throw new CelFunctionError(`cidr(): "${text}" is not a CIDR (address/prefix length)`);
  return value;
};

const method = (receiverType: string, name: string, params: string[], returnType: string, handler: (...args: never[]) => unknown) => ({
  name,
  receiverType,
  returnType,
  params: params.map((type, i) => ({ name: `p${i}`, type })),
  handler,
});

function baseEnvironment(): Environment {
  const env = new Environment({ homogeneousAggregateLiterals: false })
    .registerType('net.IP', IpValue)
    .registerType('net.CIDR', CidrValue)
    .registerFunction('ip(string): net.IP', ip)
    .registerFunction('cidr(string): net.CIDR', cidr)
    .registerFunction('isIP(string): bool', (s: string) => parseIp(s) !== undefined)
    .registerFunction('isCIDR(string): bool', (s: string) => parseCidr(s) !== undefined)
    .registerFunction('string(net.IP): string', (v: IpValue) => v.toString())
    .registerFunction('string(net.CIDR): string', (v: CidrValue) => v.toString())
    // Standard CEL's string(timestamp), which the library leaves out: RFC 3339 in UTC, to the second.
    .registerFunction('string(google.protobuf.Timestamp): string', (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  const methods = [
    method('net.IP', 'family', [], 'int', (v: IpValue) => BigInt(v.family)),
    method('net.IP', 'isUnspecified', [], 'bool', (v: IpValue) => v.value === 0n),
    method('net.IP', 'isLoopback', [], 'bool', (v: IpValue) => (v.family === 4 ? v.value >> 24n === 127n : v.value === 1n)),
    method('net.CIDR', 'prefixLength', [], 'int', (v: CidrValue) => BigInt(v.prefixLength)),
    method('net.CIDR', 'ip', [], 'net.IP', (v: CidrValue) => v.ip),
    method('net.CIDR', 'masked', [], 'net.CIDR', (v: CidrValue) => v.masked()),
    method('net.CIDR', 'containsIP', ['net.IP'], 'bool', (v: CidrValue, other: IpValue) => v.containsIp(other)),
    method('net.CIDR', 'containsIP', ['string'], 'bool', (v: CidrValue, other: string) => v.containsIp(ip(other))),
    method('net.CIDR', 'containsCIDR', ['net.CIDR'], 'bool', (v: CidrValue, other: CidrValue) => v.containsCidr(other)),
    method('net.CIDR', 'containsCIDR', ['string'], 'bool', (v: CidrValue, other: string) => v.containsCidr(cidr(other))),
  ];
  for (const m of methods) env.registerFunction(m as never);
  env.registerOperator('net.IP == net.IP', (a: IpValue, b: IpValue) => a.family === b.family && a.value === b.value);
  env.registerOperator('net.CIDR == net.CIDR', (a: CidrValue, b: CidrValue) => a.toString() === b.toString());
  return env;
}

/** The variables every expression sees besides `object` (README "Policies"). */
const COMMON_VARIABLES: Record<string, string> = {
  oldObject: 'dyn',
  operation: 'string',
  stack: 'string',
  environment: 'string',
  docs: 'map<string, list<dyn>>',
  now: 'google.protobuf.Timestamp',
};

let base: Environment | undefined;
const byKind = new Map<string, { env: Environment; decl: { [field: string]: CelDecl } | undefined }>();
let schemas: ReturnType<typeof kindSchemas> | undefined;

/**
 * The environment of a kind's expressions (`object` typed by its schema), or of any kind (`undefined`: `object`
 * is dyn). Made once per kind; a policy clones it to add its variables.
 */
export function kindEnvironment(kind: string | undefined): { env: Environment; decl: { [field: string]: CelDecl } | undefined } {
  const key = kind ?? '';
  let made = byKind.get(key);
  if (made) return made;
  base ??= baseEnvironment();
  const env = base.clone();
  for (const [name, type] of Object.entries(COMMON_VARIABLES)) env.registerVariable(name, type);
  const schema = kind === undefined ? undefined : (schemas ??= kindSchemas()).get(kind);
  const decl = schema ? objectDecl(schema, kindByName(kind!)?.secrets ?? []) : undefined;
  if (decl) env.registerVariable({ name: 'object', schema: decl } as never);
  else env.registerVariable('object', 'dyn');
  made = { env, decl };
  byKind.set(key, made);
  return made;
}

/** Whether `kind` is a resource kind a policy can match. */
export const isResourceKind = (kind: string): boolean => kindByName(kind) !== undefined;
