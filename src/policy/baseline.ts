// The built-in pack `edgeops:baseline`, opted into by name in edgeops.yaml `policies:`. Each rule is a plain
// Policy document, with its PolicyTest, that `edgeops policy show edgeops:baseline` prints for copying.
export const BASELINE = 'edgeops:baseline';

export const BASELINE_YAML = `# edgeops:baseline: guardrails for edge configuration. Copy any rule into your own policies directory to change it.
kind: Policy
name: no-world-allow
description: An IP policy rule must not allow every address
severity: deny
match:
  kinds: [IPPolicyRule]
validations:
  - expression: "object.action != 'allow' || cidr(object.cidr).prefixLength() > 0"
    message_expression: "'allows ' + object.cidr + ' (every address)'"
    field: cidr
---
kind: Policy
name: tls-min-1-2
description: TLS termination accepts TLS 1.2 or higher
severity: deny
match:
  kinds: [TLSEdge, HTTPSEdge]
validations:
  - expression: "!has(object.tls_termination) || !has(object.tls_termination.min_version) || object.tls_termination.min_version in ['1.2', '1.3']"
    message_expression: "'accepts TLS ' + object.tls_termination.min_version + ' (1.2 or higher is required)'"
    field: tls_termination.min_version
---
kind: Policy
name: mtls-required-prod
description: TLS edges of production environments require client certificates from at least one CA
severity: deny
match:
  kinds: [TLSEdge]
  environments: [prod*]
validations:
  - expression: "has(object.mutual_tls) && (!has(object.mutual_tls.enabled) || object.mutual_tls.enabled) && object.mutual_tls.certificate_authority_ids.size() > 0"
    message: has no mutual TLS with a certificate authority
    field: mutual_tls
---
kind: Policy
name: tcp-ip-restriction
description: Every TCP edge restricts source addresses with an IP policy
severity: deny
match:
  kinds: [TCPEdge]
validations:
  - expression: "has(object.ip_restriction) && (!has(object.ip_restriction.enabled) || object.ip_restriction.enabled) && object.ip_restriction.ip_policy_ids.size() > 0"
    message: has no IP restriction
    field: ip_restriction
---
kind: Policy
name: cert-expiry-warn
description: A certificate expires in less than 30 days
severity: warn
match:
  kinds: [TLSCertificate, CertificateAuthority]
validations:
  - expression: "!has(object.not_after) || object.not_after - now >= duration('720h')"
    message_expression: "'expires on ' + string(object.not_after) + ' (in less than 30 days)'"
---
kind: Policy
name: cert-expiry-deny
description: A certificate expires in less than 7 days
severity: deny
match:
  kinds: [TLSCertificate, CertificateAuthority]
validations:
  - expression: "!has(object.not_after) || object.not_after - now >= duration('168h')"
    message_expression: "'expires on ' + string(object.not_after) + ' (in less than 7 days)'"
---
kind: Policy
name: no-cert-delete-prod
description: Certificates and certificate authorities are not deleted in production environments
severity: deny
match:
  kinds: [TLSCertificate, CertificateAuthority]
  operations: [delete]
  environments: [prod*]
validations:
  - expression: "operation != 'delete'"
    message: deletes a certificate in a production environment
---
kind: PolicyTest
name: no-world-allow
policy: no-world-allow
cases:
  - {name: world, object: {name: any, cidr: 0.0.0.0/0, ip_policy_id: office, action: allow}, expect: deny}
  - {name: world v6, object: {name: any, cidr: "::/0", ip_policy_id: office, action: allow}, expect: deny}
  - {name: office, object: {name: office, cidr: 203.0.113.0/24, ip_policy_id: office, action: allow}, expect: pass}
  - {name: deny rule, object: {name: block, cidr: 0.0.0.0/0, ip_policy_id: office, action: deny}, expect: pass}
---
kind: PolicyTest
name: tls-min-1-2
policy: tls-min-1-2
cases:
  - {object: {name: old, tls_termination: {min_version: "1.0"}}, expect: deny}
  - {object: {name: new, tls_termination: {min_version: "1.2"}}, expect: pass}
  - {object: {name: default}, expect: pass}
---
kind: PolicyTest
name: mtls-required-prod
policy: mtls-required-prod
cases:
  - {environment: prod, object: {name: bare}, expect: deny}
  - {environment: prod, object: {name: mtls, mutual_tls: {certificate_authority_ids: [corp]}}, expect: pass}
  - {environment: staging, object: {name: bare}, expect: pass}
---
kind: PolicyTest
name: tcp-ip-restriction
policy: tcp-ip-restriction
cases:
  - {object: {name: open}, expect: deny}
  - {object: {name: closed, ip_restriction: {ip_policy_ids: [office]}}, expect: pass}
---
kind: PolicyTest
name: cert-expiry-warn
policy: cert-expiry-warn
cases:
  - {now: "2027-01-01T00:00:00Z", object: {name: soon, not_after: "2027-01-20T00:00:00Z"}, expect: warn}
  - {now: "2027-01-01T00:00:00Z", object: {name: later, not_after: "2027-06-01T00:00:00Z"}, expect: pass}
---
kind: PolicyTest
name: cert-expiry-deny
policy: cert-expiry-deny
cases:
  - {now: "2027-01-01T00:00:00Z", object: {name: soon, not_after: "2027-01-05T00:00:00Z"}, expect: deny}
  - {now: "2027-01-01T00:00:00Z", object: {name: later, not_after: "2027-01-20T00:00:00Z"}, expect: pass}
---
kind: PolicyTest
name: no-cert-delete-prod
policy: no-cert-delete-prod
cases:
  - {environment: prod, operation: delete, object: {name: wildcard}, expect: deny}
  - {environment: dev, operation: delete, object: {name: wildcard}, expect: pass}
`;
