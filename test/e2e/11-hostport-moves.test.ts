// A hostport belongs to one edge in the whole account: a plan that moves one (renaming an edge, or handing a
// hostport from one edge to another) must free it before it is claimed, and converge in one apply.
import { describe, expect, it } from 'vitest';
import { groupByAddress, groupLines } from '../../src/render/wording.ts';
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

  it('two edges swapping their hostports: one releases first, the plan shows it, one apply converges', async () => {
    const before = [
      { kind: 'TCPEdge', name: 'left', hostports: ['1.tcp.example.com:21001'] },
      { kind: 'TCPEdge', name: 'right', hostports: ['1.tcp.example.com:21002'] },
    ];
    await e.converge(before);
    const after = [
      { kind: 'TCPEdge', name: 'left', hostports: ['1.tcp.example.com:21002'] },
      { kind: 'TCPEdge', name: 'right', hostports: ['1.TCP.example.com:21001'] },
    ];
    const { plan } = await e.plan(after);
    expect(planLines(plan)).toEqual(['update TCPEdge/left /hostports', 'update TCPEdge/right /hostports', 'update TCPEdge/left /hostports']);
    const step = plan.actions[0]!;
    expect(step).toMatchObject({ id: 'release:TCPEdge/left', releaseFor: ['TCPEdge/right'], body: { hostports: [] } });
    expect(plan.summary).toEqual({ create: 0, update: 2, replace: 0, delete: 0 });
    const text = groupLines(groupByAddress(plan)[0]!).map((l) => `${l.sign} ${l.text}`);
    expect(text).toContain('~ first, release values for TCPEdge/right');
    await e.converge(after);
  });

  it('three edges rotating their hostports, with a delete and a create taking part', async () => {
    const tcp = (name: string, ...ports: number[]): Doc => ({ kind: 'TCPEdge', name, hostports: ports.map((p) => `1.tcp.example.com:${p}`) });
    await e.converge([tcp('r1', 22001), tcp('r2', 22002), tcp('r3', 22003), tcp('gone', 22004)]);
    const after = [tcp('r1', 22002), tcp('r2', 22003), tcp('r3', 22001, 22004), tcp('fresh', 22005)];
    const { plan } = await e.plan(after);
    expect(plan.actions.filter((a) => a.releaseFor)).toHaveLength(1);
    await e.converge(after);
    await e.converge([tcp('r1', 22001), tcp('r2', 22002), tcp('r3', 22003), tcp('gone', 22004)]);
  });
});
