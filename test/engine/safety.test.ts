// Delete safety as pure functions: the warnings a plan carries, the status line plan prints, and the refusal apply raises.
import { describe, expect, it } from 'vitest';
import type { Action, Plan } from '../../src/engine/plan-data.ts';
import { assertDeletesAllowed, deleteStatusLine, deleteWarnings } from '../../src/engine/safety.ts';
import { UnsafePlanError } from '../../src/errors.ts';

function action(op: Action['op'], address: string): Action {
  const [kind, name] = address.split('/') as [string, string];
  return { id: `${op}:${address}`, op, kind, name, address, changes: [], dependsOn: [] };
}

function planWith(deletes: Record<string, number>, extra: Action[] = []): Plan {
  const actions = Object.entries(deletes).flatMap(([kind, n]) => Array.from({ length: n }, (_, i) => action('delete', `${kind}/d${i}`)));
  return { stack: 's', actions: [...actions, ...extra], summary: { create: 0, update: 0, replace: 0, delete: actions.length }, warnings: [] };
}

describe('delete safety', () => {
  it('counts deletes only (a replacement replaces, it does not lose a resource)', () => {
    const plan = planWith({ TCPEdge: 2 }, [action('replace', 'IPPolicyRule/r'), action('module-delete', 'TCPEdge/x'), action('create', 'IPPolicy/p')]);
    expect(deleteStatusLine(plan, {})).toBe('Deletes: 2 of max 10, within the limits.');
  });

  it('shows the status within the limits (over them, the plan warning says so), without failing', () => {
    expect(deleteStatusLine(planWith({}), {})).toBeUndefined();
    expect(deleteStatusLine(planWith({ TCPEdge: 3 }), {})).toBe('Deletes: 3 of max 10, within the limits.');
    expect(deleteStatusLine(planWith({ TCPEdge: 6, IPPolicy: 6 }), {})).toBeUndefined();
    expect(deleteWarnings(planWith({ TCPEdge: 6, IPPolicy: 6 }), {})).toEqual(['This plan deletes 12 resources, more than max_deletes (10); apply refuses it without --allow-deletes.']);
  });

  it('refuses over max_deletes, naming the count and the limit, unless deletes are allowed', () => {
    const plan = planWith({ TCPEdge: 6, IPPolicy: 6 });
    expect(() => assertDeletesAllowed(plan, {}, { deletes: false, destroy: false })).toThrow(UnsafePlanError);
    expect(() => assertDeletesAllowed(plan, {}, { deletes: false, destroy: false })).toThrow('it deletes 12 resources, more than max_deletes (10)');
    expect(() => assertDeletesAllowed(plan, {}, { deletes: true, destroy: false })).not.toThrow();
    expect(() => assertDeletesAllowed(plan, { max_deletes: 12 }, { deletes: false, destroy: false })).not.toThrow();
    expect(() => assertDeletesAllowed(planWith({ TCPEdge: 1 }), { max_deletes: 0 }, { deletes: false, destroy: false })).toThrow('more than max_deletes (0)');
  });

  it('applies per-kind limits on their own', () => {
    const plan = planWith({ TCPEdge: 3, IPPolicy: 1 });
    const config = { max_deletes_per_kind: { TCPEdge: 2, IPPolicy: 5, TLSEdge: 0 } };
    expect(deleteWarnings(plan, config)).toEqual(['This plan deletes 3 TCPEdge resources, more than max_deletes_per_kind.TCPEdge (2); apply refuses it without --allow-deletes.']);
    expect(deleteStatusLine(plan, config)).toBeUndefined();
    expect(() => assertDeletesAllowed(plan, config, { deletes: false, destroy: false })).toThrow('it deletes 3 TCPEdge resources, more than max_deletes_per_kind.TCPEdge (2)');
    expect(() => assertDeletesAllowed(plan, config, { deletes: true, destroy: false })).not.toThrow();
    expect(deleteStatusLine(planWith({ IPPolicy: 1 }), config)).toBe('Deletes: 1 of max 10 (IPPolicy 1 of max 5), within the limits.');
  });

  it('refuses a destroy without --destroy whatever the limits, and lets --destroy past them', () => {
    const small = { ...planWith({ TCPEdge: 2 }), destroy: { resources: 2 } };
    const large = { ...planWith({ TCPEdge: 12 }), destroy: { resources: 12 } };
    for (const plan of [small, large]) {
      expect(() => assertDeletesAllowed(plan, {}, { deletes: false, destroy: false })).toThrow(`it deletes every resource of stack "s" (${plan.destroy.resources})`);
      expect(() => assertDeletesAllowed(plan, {}, { deletes: true, destroy: false })).toThrow('pass --destroy');
      expect(() => assertDeletesAllowed(plan, { max_deletes: 0 }, { deletes: false, destroy: true })).not.toThrow();
      expect(deleteStatusLine(plan, {})).toBeUndefined();
    }
  });
});
