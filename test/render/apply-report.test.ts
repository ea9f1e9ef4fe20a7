import { describe, expect, it } from 'vitest';
import type { Action, ApplyEvent, ApplyResult } from '../../src/engine/plan-data.ts';
import { createApplyView } from '../../src/render/apply-progress.ts';
import { textView } from '../../src/render/text.ts';
import { applySummary, eventLine } from '../../src/render/apply-report.ts';
import { createRedactor } from '../../src/render/redact.ts';
import { samplePlan } from './sample-plan.ts';

const action = (id: string) => samplePlan.actions.find((a) => a.id === id)!;

describe('apply report', () => {
  it('prints one plain line per finished action', () => {
    expect(eventLine({ type: 'start', action: action('create:TCPEdge/ssh') })).toBeUndefined();
    expect(eventLine({ type: 'done', action: action('create:TCPEdge/ssh'), liveId: 'edgtcp_new' } as ApplyEvent)).toBe('created TCPEdge/ssh (edgtcp_new)');
    expect(eventLine({ type: 'done', action: action('delete:HTTPResponseBackend/maintenance') }))
      .toBe('deleted HTTPResponseBackend/maintenance (bkdhr_2rcCvYaCz4tUbWiCRVTCu2Rsxr9)');
    expect(eventLine({ type: 'done', action: action('module-put:TLSEdge/secure:backend') }))
      .toBe('updated TLSEdge/secure: module backend put (edgtls_2rcCvYaCz4tUbWiCRVTCu2RsxrA)');
    expect(eventLine({ type: 'failed', action: action('create:TCPEdge/ssh'), error: { status: 400, errorCode: 'ERR_HOSTPORT_IN_USE', message: 'hostport in use' } }))
      .toBe('failed to create TCPEdge/ssh (infra/edges.yaml:12): 400 ERR_HOSTPORT_IN_USE: hostport in use');
    // The failure names the document's file:line, and every managed resource the service's message mentions by id.
    const inUse = { status: 400, errorCode: 'ERR_HOSTPORT_IN_USE', message: 'hostport 1.tcp.example.com:20001 is already used by ipp_1234567890abcdefghijklmnopq' };
    expect(eventLine({ type: 'failed', action: action('create:TCPEdge/ssh'), error: inUse }, samplePlan.names))
      .toBe('failed to create TCPEdge/ssh (infra/edges.yaml:12): 400 ERR_HOSTPORT_IN_USE: hostport 1.tcp.example.com:20001 is already used by IPPolicy/office (ipp_1234567890abcdefghijklmnopq)');
    expect(eventLine({ type: 'skipped', action: action('create:TCPEdge/ssh'), because: 'create:TunnelGroupBackend/web' }))
      .toBe('skipped TCPEdge/ssh (depends on failed create:TunnelGroupBackend/web)');
  });

  it('sums up a complete apply per address', () => {
    const result: ApplyResult = { ok: true, results: samplePlan.actions.map((a) => ({ actionId: a.id, status: 'done' as const })) };
    expect(applySummary(samplePlan, result)).toBe('Apply complete: 3 created, 1 updated, 1 replaced, 2 deleted.\n');
  });

  it('lists every failure with its API error and every skipped dependent', () => {
    const result: ApplyResult = {
      ok: false,
      results: [
        { actionId: 'create:TunnelGroupBackend/web', status: 'failed', error: { status: 409, errorCode: 'ERR_CONFLICT', message: 'no' } },
        { actionId: 'create:TCPEdge/ssh', status: 'skipped', skippedBecause: 'create:TunnelGroupBackend/web' },
        { actionId: 'delete:HTTPResponseBackend/maintenance', status: 'done' },
        { actionId: 'create:TLSCertificate/wildcard', status: 'failed', error: { message: 'socket hang up' } },
        { actionId: 'create:TCPEdge/ssh', status: 'failed', error: { status: 400, errorCode: 'ERR_X', message: 'TunnelGroupBackend bkdtg_old000000000000000000000 is busy' } },
      ],
    };
    expect(applySummary(samplePlan, result)).toBe([
      'Apply failed: 3 actions failed; 0 created, 0 updated, 0 replaced, 1 deleted.',
      '  failed:  create TunnelGroupBackend/web: 409 ERR_CONFLICT: no',
      '  failed:  create TLSCertificate/wildcard: socket hang up',
      '  failed:  create TCPEdge/ssh (infra/edges.yaml:12): 400 ERR_X: TunnelGroupBackend TunnelGroupBackend/web-old (bkdtg_old000000000000000000000) is busy',
      '  skipped: create TCPEdge/ssh (depends on create:TunnelGroupBackend/web)',
      '  not started: 5 actions',
      '    update TLSEdge/secure',
      '    module-put TLSEdge/secure: module backend put',
      '    module-delete TLSEdge/secure: module ip_restriction delete',
      '    replace IPPolicyRule/office-v4',
      '    delete RouteResponseHeaders of HTTPSEdgeRoute/api',
      'Run the same command again to converge once the cause is fixed.',
      '',
    ].join('\n'));
  });
});

describe('a replace left half done', () => {
  it('names the document, both ids and why the old one was kept, with the ids it mentions named', () => {
    const result: ApplyResult = {
      ok: false,
      results: samplePlan.actions.map((a) => (a.id === 'replace:IPPolicyRule/office-v4'
        ? { actionId: a.id, status: 'failed' as const, error: { status: 0, errorCode: 'ECONNRESET', message: 'socket hang up' } }
        : { actionId: a.id, status: 'done' as const })),
      kept: [{ address: 'IPPolicyRule/office-v4', oldId: 'ipr_old', newId: 'ipr_new', reason: 'its delete failed: 0 ECONNRESET: socket hang up on bkdtg_old000000000000000000000' }],
    };
    expect(applySummary(samplePlan, result).split('\n')).toContain(
      '  kept:    IPPolicyRule/office-v4: ipr_old beside its replacement ipr_new, its delete failed: 0 ECONNRESET: socket hang up on '
        + 'TunnelGroupBackend/web-old (bkdtg_old000000000000000000000); the next plan deletes ipr_old',
    );
  });
});

describe('an interrupted apply', () => {
  it('counts the actions that never started and names each of them', () => {
    expect(eventLine({ type: 'skipped', action: action('create:TCPEdge/ssh'), because: 'interrupted' })).toBeUndefined();
    const result: ApplyResult = {
      ok: false,
      interrupted: true,
      results: samplePlan.actions.map((a, i) => (i < 2 ? { actionId: a.id, status: 'done' as const } : { actionId: a.id, status: 'skipped' as const })),
    };
    expect(applySummary(samplePlan, result)).toBe([
      'Apply failed: interrupted; 2 created, 0 updated, 0 replaced, 0 deleted.',
      '  not started: 7 actions',
      '    create TCPEdge/ssh',
      '    update TLSEdge/secure',
      '    module-put TLSEdge/secure: module backend put',
      '    module-delete TLSEdge/secure: module ip_restriction delete',
      '    replace IPPolicyRule/office-v4',
      '    delete HTTPResponseBackend/maintenance',
      '    delete RouteResponseHeaders of HTTPSEdgeRoute/api',
      'Run the same command again to converge once the cause is fixed.',
      '',
    ].join('\n'));
  });

  it('names the first 20 that never started and counts the rest', () => {
    const actions: Action[] = Array.from({ length: 250 }, (_, i) => {
      const name = `p-${String(i).padStart(3, '0')}`;
      return { id: `create:IPPolicy/${name}`, op: 'create', kind: 'IPPolicy', name, address: `IPPolicy/${name}`, changes: [], dependsOn: [] };
    });
    const big = { ...samplePlan, actions, summary: { create: 250, update: 0, replace: 0, delete: 0 } };
    const result: ApplyResult = {
      ok: false,
      interrupted: true,
      results: actions.map((a, i) => ({ actionId: a.id, status: i < 10 ? ('done' as const) : ('skipped' as const) })),
    };
    const lines = applySummary(big, result).split('\n');
    expect(lines.slice(0, 2)).toEqual(['Apply failed: interrupted; 10 created, 0 updated, 0 replaced, 0 deleted.', '  not started: 240 actions']);
    expect(lines.slice(2, 2 + 20)).toEqual(actions.slice(10, 10 + 20).map((a) => `    create ${a.address}`));
    expect(lines.slice(2 + 20)).toEqual(['    and 220 more', 'Run the same command again to converge once the cause is fixed.', '']);
  });
});

describe('apply progress', () => {
  const events: ApplyEvent[] = [
    { type: 'start', action: action('create:TunnelGroupBackend/web') },
    { type: 'start', action: action('create:TLSCertificate/wildcard') },
    { type: 'done', action: action('create:TunnelGroupBackend/web') },
    { type: 'failed', action: action('create:TLSCertificate/wildcard'), error: { status: 400, errorCode: 'ERR_PEM_INVALID', message: 'bad PEM SECRETVALUE123' } },
  ];

  it('prints plain lines when the output is not a terminal', () => {
    let out = '';
    const redact = createRedactor(['SECRETVALUE123']);
    const progress = createApplyView({ live: false, color: false, write: (t) => { out += redact(t); } }).progress(2, {});
    events.forEach((e) => progress.onEvent(e));
    progress.stop();
    expect(out).toBe('\ncreated TunnelGroupBackend/web\nfailed to create TLSCertificate/wildcard: 400 ERR_PEM_INVALID: bad PEM (sensitive)\n');
  });

  it('on a terminal redraws a live region of actions in flight and leaves finished lines behind', () => {
    let out = '';
    const progress = createApplyView({ live: true, color: false, write: (t) => { out += t; }, columns: 80 }).progress(2, {});
    events.forEach((e) => progress.onEvent(e));
    progress.stop();
    expect(out).toContain('⠋ creating TunnelGroupBackend/web\n');
    expect(out).toContain('⠋ creating TLSCertificate/wildcard\n');
    expect(out).toContain('\x1b[3F\x1b[J'); // the region (two actions + counter) erased before the next draw
    expect(out).toContain('✓ created TunnelGroupBackend/web\n');
    expect(out).toContain('✗ failed to create TLSCertificate/wildcard');
    expect(out).toContain('2/2 done');
    expect(out.endsWith('\x1b[1F\x1b[J')).toBe(true); // stop() clears the last counter line
  });
});

describe('apply view', () => {
  const shown = (plan = samplePlan, footer = {}): string => {
    let out = '';
    const view = createApplyView({ live: false, color: false, write: (t) => { out += t; } });
    view.plan(plan, footer);
    return out;
  };

  it('shows the plan it is given with its footer, as the text view makes it', () => {
    const footer = { deletes: 'Deletes: 2 of max 10, within the limits.' };
    const out = shown(samplePlan, footer);
    expect(out).toBe(textView({ color: false }).plan(samplePlan, footer));
    expect(out).toContain('TCPEdge/ssh');
    expect(out).toContain(footer.deletes);
    const other = { ...samplePlan, actions: samplePlan.actions.slice(0, 1) };
    expect(shown(other)).not.toBe(shown(samplePlan));
  });
});
