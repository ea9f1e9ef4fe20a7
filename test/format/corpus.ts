// A manifest set written every way fmt must keep: comments (heading a file, a document, a field, after a value),
// anchors, aliases and merge keys, keys out of the schema's order, 4-space and unindented lists, a long flow
// list, a modeline in the first document only. It validates and applies as it is.
export const CORPUS: Record<string, string> = {
  'web.yaml': `# yaml-language-server: $schema=../schemas/manifest.schema.json
# The web tier: backends whose labels are shared by merge keys.
name: web          # referenced by the edges below
kind: TunnelGroupBackend
labels: &lbl {app: web, dc: eu-1}
metadata:
    <<: *lbl
    team: web
description: web tier tunnels
---
kind: TunnelGroupBackend
labels: {<<: {app: web, tier: "2"}, dc: eu-2}
name: web-eu2
---
# Who may connect.
description: office networks
kind: IPPolicy
name: office
---
action: allow
cidr: 203.0.113.0/24
ip_policy_id: office   # the policy above
kind: IPPolicyRule
name: office-v4
`,
  'edges.yaml': `kind: TCPEdge
name: ssh
ip_restriction: {ip_policy_ids: [office]}
backend:
    backend_id: web
    enabled: true
hostports: ["1.tcp.example.com:20001", "1.tcp.example.com:20002", "1.tcp.example.com:20003"]
description: &d bastion hosts
metadata: {purpose: *d}
---
kind: TCPEdge
name: mqtt
hostports:
- 2.tcp.example.com:21883
backend: {backend_id: web-eu2}

# Unknown ports are dropped both ways.
policy:
    inbound:
        -   &drop {actions: [{type: deny}], name: drop-unknown-ports, expressions: ["conn.server_port != 21883"]}
    outbound: [*drop]
`,
};

/** The corpus in the canonical layout, written out by hand. */
export const FORMATTED: Record<string, string> = {
  'web.yaml': `# yaml-language-server: $schema=../schemas/manifest.schema.json
# The web tier: backends whose labels are shared by merge keys.
kind: TunnelGroupBackend
name: web # referenced by the edges below
description: web tier tunnels
labels: &lbl {app: web, dc: eu-1}
metadata:
  <<: *lbl
  team: web
---
# yaml-language-server: $schema=../schemas/manifest.schema.json
kind: TunnelGroupBackend
name: web-eu2
labels: {<<: {app: web, tier: "2"}, dc: eu-2}
---
# yaml-language-server: $schema=../schemas/manifest.schema.json
# Who may connect.
kind: IPPolicy
name: office
description: office networks
---
# yaml-language-server: $schema=../schemas/manifest.schema.json
kind: IPPolicyRule
name: office-v4
cidr: 203.0.113.0/24
ip_policy_id: office # the policy above
action: allow
`,
  'edges.yaml': `kind: TCPEdge
name: ssh
description: &d bastion hosts
metadata: {purpose: *d}
hostports:
  - "1.tcp.example.com:20001"
  - "1.tcp.example.com:20002"
  - "1.tcp.example.com:20003"
backend:
  enabled: true
  backend_id: web
ip_restriction: {ip_policy_ids: [office]}
---
kind: TCPEdge
name: mqtt
hostports:
  - 2.tcp.example.com:21883
backend: {backend_id: web-eu2}

# Unknown ports are dropped both ways.
policy:
  inbound:
    - &drop
      name: drop-unknown-ports
      expressions: ["conn.server_port != 21883"]
      actions: [{type: deny}]
  outbound: [*drop]
`,
};
