// A hostport belongs to one edge in the whole account: a plan that moves one (renaming an edge, or handing a
// hostport from one edge to another) must free it before it is claimed, and converge in one apply.
import { describe, expect, it } from 'vitest';
import { e2eForFile, planLines } from './harness.ts';
import type { Doc } from './harness.ts';

const { e } = e2eForFile({ certs: false });

const backend: Doc = { kind: 'TunnelGroupBackend', name: 'web', labels: { app: 'web' } };

describe('hostport moves', () => {
  it('an edge renamed with its hostport: delete first, then create, in one apply', async () => {
    await e.converge([backend, { kind: 'TCPEdge', name: 'ssh', hostports: ['1.tcp.example.com:20001'], backend: { backend_id: 'web' } }]);
    const renamed = [backend, { kind: 'TCPEdge', name: 'bastion', hostports: ['1.tcp.example.com:20001'], backend: { backend_id: 'web' } }];
    const { plan } = await e.plan(renamed);
    expect(planLines(plan)).toEqual(['delete TCPEdge/ssh', 'create TCPEdge/bastion']);
    expect(plan.actions[1]!.dependsOn).toEqual(['delete:TCPEdge/ssh']);
    await e.converge(renamed);
  });

  it('a hostport handed from one edge to another: the giver is updated first', async () => {
    const before = [
      { kind: 'TLSEdge', name: 'a', hostports: ['a.example.com:443', 'shared.example.com:443'] },
      { kind: 'TLSEdge', name: 'b', hostports: ['b.example.com:443'] },
    ];
    await e.converge(before);
    const after = [
      { kind: 'TLSEdge', name: 'a', hostports: ['a.example.com:443'] },
      { kind: 'TLSEdge', name: 'b', hostports: ['b.example.com:443', 'shared.example.com:443'] },
    ];
    const { plan } = await e.plan(after);
    expect(planLines(plan)).toEqual(['update TLSEdge/a /hostports', 'update TLSEdge/b /hostports']);
    expect(plan.actions[1]!.dependsOn).toEqual(['update:TLSEdge/a']);
    await e.converge(after);
  });
});
