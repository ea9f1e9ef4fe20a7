// The `traffic_policy` module of the public API (TCP edges, TLS edges, HTTPS edge routes): `{enabled, value}`,
// where value is a policy document written as a JSON or YAML string. The string is stored and returned as sent
// (the public API echoes it); it is only checked: it must parse into a mapping of phases, each a list of rules
// `{name?, expressions?, actions: [{type, config?}]}`. TCP and TLS edges carry only on_tcp_connect; routes also
// the HTTP phases. Every problem inside the document is ERR_TRAFFIC_POLICY_INVALID naming its place in it; what
// a document is lives in src/contract/traffic-policy.ts, which the manifest pipeline checks with too.
import { describePolicyProblem, policyDocumentProblem, TRAFFIC_POLICY_MAX_BYTES } from '../../contract/traffic-policy.ts';
import { ServiceError } from '../errors.ts';
import { boolean, fieldPath, parseObject, string } from '../validate.ts';
import type { ModuleDef } from './edge-module-rules.ts';

export { HTTP_PHASES, TCP_PHASES } from '../../contract/traffic-policy.ts';

export type TrafficPolicyModule = { enabled: boolean; value: string };

/** Throws ERR_TRAFFIC_POLICY_INVALID unless `text` is a policy document with only `phases`. */
function checkPolicyDocument(text: string, path: string, phases: readonly string[]): void {
  const found = policyDocumentProblem(text, phases);
  if (found) throw new ServiceError('ERR_TRAFFIC_POLICY_INVALID', describePolicyProblem(path, found));
}

/** The module for an edge or route whose traffic has `phases`. */
export function trafficPolicyModule(phases: readonly string[]): ModuleDef<TrafficPolicyModule> {
  return {
    name: 'traffic_policy',
    parse(value, path) {
      const m = parseObject(value, path, {
        enabled: boolean(),
        value: string({ nonEmpty: true, maxBytes: TRAFFIC_POLICY_MAX_BYTES, tooLong: 'ERR_TRAFFIC_POLICY_INVALID' }),
      }, ['value']);
      checkPolicyDocument(m.value!, fieldPath(path, 'value'), phases);
      return { enabled: m.enabled ?? true, value: m.value! };
    },
    render: (m) => ({ enabled: m.enabled, value: m.value }),
    refs: () => [],
  };
}
