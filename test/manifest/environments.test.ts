// Environments in the manifest pipeline: a stack's bases, typed variables, templates and Patch documents are
// resolved before every check, and every problem is reported at the line that wrote the value, with the chain
// that brought it into the document.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BaseNotStackError } from '../../src/errors.ts';
import { refuseBases } from '../../src/manifest/environment/base-users.ts';
import { environmentInputs } from '../../src/manifest/environment/inputs.ts';
import { readDesiredState } from '../../src/manifest/read-desired.ts';
import { renderValidateJson } from '../../src/render/validate-json.ts';
import { errorLines, writeTree, yaml } from './tree.ts';

const BASE = {
  'base/edgeops.yaml': yaml(
    'role: base',
    'vars:',
    '  domain: {type: string}',
    '  office_cidr: {type: cidr, default: 198.51.100.0/24}',
    '  ports: {type: list, default: ["1.tcp.example.com:20001"]}',
  ),
  'base/edges.yaml': yaml(
    'kind: HTTPSEdge',
    'name: api',
    'hostports: [{template: "api.${domain}:443"}]',
    'tls_termination: {min_version: "1.2"}',
    '---',
    'kind: TCPEdge',
    'name: ssh',
    'description: ssh',
    'hostports: {var: ports}',
  ),
  'base/access.yaml': yaml(
    'kind: IPPolicy',
    'name: office',
    '---',
    'kind: IPPolicyRule',
    'name: office-v4',
    'ip_policy_id: office',
    'cidr: {var: office_cidr}',
    'action: allow',
  ),
};

const prodConfig = (...vars: string[]): string => yaml('stack: edge-prod', 'environment: prod', 'base: [../base]', 'vars:', ...vars.map((v) => `  ${v}`));

const stack = (files: Record<string, string>): Record<string, string> => ({ ...BASE, ...files });

async function resolved(files: Record<string, string>) {
  const cwd = writeTree(stack(files));
  const desired = await readDesiredState(['prod'], { cwd, env: {} });
  return { desired, byAddress: new Map(desired.resources.map((r) => [r.address, r])), cwd };
}

const errors = (files: Record<string, string>): Promise<string[]> => errorLines(stack(files), { paths: ['prod'] });

describe('an environment resolves', () => {
  it('bases, then its own documents, then Patches, then variables and templates', async () => {
    const { byAddress, desired } = await resolved({
      'prod/edgeops.yaml': prodConfig('domain: example.com', 'office_cidr: 203.0.113.0/24'),
      'prod/patches.yaml': yaml('kind: Patch', 'target: HTTPSEdge/api', 'set:', '  tls_termination: {min_version: "1.3"}'),
      'prod/own.yaml': yaml('kind: IPPolicy', 'name: vpn', 'description: {template: "vpn of ${domain}, $${literal}"}'),
    });
    expect(desired.resources.map((r) => r.address)).toEqual(['IPPolicy/office', 'IPPolicyRule/office-v4', 'HTTPSEdge/api', 'TCPEdge/ssh', 'IPPolicy/vpn']);
    expect(byAddress.get('HTTPSEdge/api')!.spec).toMatchObject({ hostports: ['api.example.com:443'], tls_termination: { min_version: '1.3' } });
    expect(byAddress.get('HTTPSEdge/api')!.sources).toEqual(['base/edges.yaml:1:1', 'prod/patches.yaml:1:1']);
    expect(byAddress.get('IPPolicyRule/office-v4')!.spec.cidr).toBe('203.0.113.0/24');
    expect(byAddress.get('TCPEdge/ssh')!.spec.hostports).toEqual(['1.tcp.example.com:20001']);
    expect(byAddress.get('IPPolicy/vpn')!.spec.description).toBe('vpn of example.com, ${literal}');
  });

  it('Patches in file order: a merge patch merges mappings, replaces lists whole and removes with null; remove drops the document', async () => {
    const { byAddress } = await resolved({
      'prod/edgeops.yaml': prodConfig('domain: example.com'),
      'prod/patches.yaml': yaml(
        'kind: Patch', 'target: TCPEdge/ssh', 'set: {hostports: ["9.tcp.example.com:1"], description: null}', '---',
        'kind: Patch', 'target: TCPEdge/ssh', 'set: {hostports: ["8.tcp.example.com:2"], moved_from: old-ssh}', '---',
        'kind: Patch', 'target: IPPolicyRule/office-v4', 'remove: true',
      ),
    });
    expect(byAddress.get('TCPEdge/ssh')!.spec).toEqual({ hostports: ['8.tcp.example.com:2'] });
    expect(byAddress.get('TCPEdge/ssh')!.movedFrom).toEqual(['TCPEdge/old-ssh']);
    expect(byAddress.has('IPPolicyRule/office-v4')).toBe(false);
  });

  it('a {file} a Patch sets is read from the patch\'s directory, and replaces the base\'s whole', async () => {
    const { byAddress } = await resolved({
      'base/pages.yaml': yaml('kind: HTTPResponseBackend', 'name: page', 'body: {file: page.html}'),
      'base/page.html': 'base page',
      'prod/edgeops.yaml': prodConfig('domain: example.com'),
      'prod/patches.yaml': yaml('kind: Patch', 'target: HTTPResponseBackend/page', 'set: {body: {file: prod-page.html}}'),
      'prod/prod-page.html': 'prod page',
    });
    expect(byAddress.get('HTTPResponseBackend/page')!.spec.body).toBe('prod page');
  });

  it('warns about a Patch that changes nothing and a variable no document uses', async () => {
    const { desired } = await resolved({
      'base/edgeops.yaml': BASE['base/edgeops.yaml'] + '  unused: {type: integer, default: 1}\n',
      'prod/edgeops.yaml': prodConfig('domain: example.com'),
      'prod/patches.yaml': yaml('kind: Patch', 'target: HTTPSEdge/api', 'set: {tls_termination: {min_version: "1.2"}}'),
    });
    expect(desired.warnings!.map((w) => `${w.pos.file}:${w.pos.line}:${w.pos.col}: ${w.message}`)).toEqual([
      'base/edgeops.yaml:6:3: variable "unused" is declared but no document uses it',
      'prod/patches.yaml:1:1: the Patch of HTTPSEdge/api changes nothing (its values are already the document\'s)',
    ]);
  });

  it('lists every file its resolution reads among its inputs', () => {
    const cwd = writeTree(stack({
      'prod/edgeops.yaml': prodConfig('domain: example.com'),
      'prod/patches.yaml': yaml('kind: Patch', 'target: HTTPSEdge/api', 'set: {description: x}'),
    }));
    expect(environmentInputs('prod', cwd).map((f) => f.slice(cwd.length + 1))).toEqual([
      'base/access.yaml', 'base/edgeops.yaml', 'base/edges.yaml', 'prod/edgeops.yaml', 'prod/patches.yaml',
    ]);
  });
});

describe('environment errors, each at the line that wrote the value', () => {
  it('variables: a wrong type, one no base declares, one without value, an unknown name in a document and a template', async () => {
    expect(await errors({
      'prod/edgeops.yaml': prodConfig('office_cidr: 203.0.113.0/33', 'extra: 1'),
      'prod/own.yaml': yaml(
        'kind: TunnelGroupBackend', 'name: web', 'description: {var: nope}', 'labels: {a: {template: "x-${ports}"}, b: {template: "${open"}}', '---',
        'kind: IPPolicy', 'name: vpn', 'description: {var: 7}',
      ),
    })).toEqual([
      'prod/edgeops.yaml:4:1: variable "domain" (declared at base/edgeops.yaml:3:3) has no value and no default: set vars.domain in this stack\'s edgeops.yaml',
      'prod/edgeops.yaml:5:16: vars.office_cidr: "203.0.113.0/33" is not an IP address or CIDR range: the prefix length must be 0-32 (declared as cidr at base/edgeops.yaml:4:3)',
      'prod/edgeops.yaml:6:3: vars.extra: no base of this stack declares a variable "extra" (declared: domain, office_cidr, ports)',
      'prod/own.yaml:3:20: TunnelGroupBackend/web: {var: nope}: no variable "nope" is declared by the stack\'s bases (declared: domain, office_cidr, ports)',
      'prod/own.yaml:4:24: TunnelGroupBackend/web: {template}: ${ports} is a list; a template writes only strings, numbers and booleans (use {var: ports} for the whole value)',
      'prod/own.yaml:4:53: TunnelGroupBackend/web: {template}: "${" at character 1 is never closed with "}" (write "$${" for a literal "${")',
      'prod/own.yaml:8:20: IPPolicy/vpn: {var: NAME}: the name must be a string',
    ]);
  });

  it('patches: a missing target, a removed target, a bad Patch, a rename and a Patch in a base', async () => {
    expect(await errors({
      'base/more.yaml': yaml('kind: Patch', 'target: TCPEdge/ssh', 'remove: true'),
      'prod/edgeops.yaml': prodConfig('domain: example.com'),
      'prod/patches.yaml': yaml(
        'kind: Patch', 'target: TCPEdge/nope', 'set: {description: x}', '---',
        'kind: Patch', 'target: IPPolicy/office', 'remove: true', '---',
        'kind: Patch', 'target: IPPolicy/office', 'set: {description: x}', '---',
        'kind: Patch', 'name: p', 'target: ssh', 'colour: red', '---',
        'kind: Patch', 'target: TCPEdge/ssh', 'set: {name: bastion}', 'remove: true', '---',
        'kind: Patch', 'target: TCPEdge/ssh',
      ),
    })).toEqual([
      'base/access.yaml:6:15: IPPolicyRule/office-v4: ip_policy_id: no IPPolicy named "office"',
      'base/more.yaml:1:1: Patch: a Patch belongs in a stack\'s directory; a base holds the documents its stacks share',
      'prod/patches.yaml:2:9: Patch: target: no document TCPEdge/nope in the bases or this stack to patch',
      'prod/patches.yaml:10:9: Patch: target: IPPolicy/office was removed by the Patch at prod/patches.yaml:5:1',
      'prod/patches.yaml:13:1: Patch: a Patch needs set (fields to change) or remove: true',
      'prod/patches.yaml:14:1: Patch: name: a Patch has no name: `target: Kind/name` names the document it changes',
      'prod/patches.yaml:15:9: Patch: target: must be Kind/name, e.g. HTTPSEdge/api',
      'prod/patches.yaml:16:1: Patch: colour: unknown field (a Patch has target, set and remove)',
      'prod/patches.yaml:20:7: Patch: set.name: a Patch cannot change the name (to rename, change the base and give the document moved_from)',
      'prod/patches.yaml:21:9: Patch: remove: a Patch either sets fields or removes the document, not both',
      'prod/patches.yaml:23:1: Patch: a Patch needs set (fields to change) or remove: true',
    ]);
  });

  it('a value a Patch writes is checked by the kind\'s schema and rules where the patch wrote it, with its chain', async () => {
    expect(await errors({
      'prod/edgeops.yaml': prodConfig('domain: example.com', 'ports: ["bad port"]'),
      'prod/patches.yaml': yaml('kind: Patch', 'target: HTTPSEdge/api', 'set:', '  tls_termination: {min_version: "1.9"}', '  hostport: [x]'),
    })).toEqual([
      'prod/edgeops.yaml:6:11 ({var: ports} at base/edges.yaml:9:12): TCPEdge/ssh: hostports[0]: "bad port" is not host:port',
      'prod/patches.yaml:4:34 (Patch of HTTPSEdge/api; document at base/edges.yaml:1:1): HTTPSEdge/api: tls_termination.min_version: must be one of 1.0, 1.1, 1.2, 1.3 (did you mean "1.0"?)',
      'prod/patches.yaml:5:3 (Patch of HTTPSEdge/api; document at base/edges.yaml:1:1): HTTPSEdge/api: unknown field "hostport" (did you mean "hostports"?)',
    ]);
  });

  it('declarations: a default of the wrong type, two bases that disagree, an unknown type; templates of no text or an unknown name', async () => {
    expect(await errors({
      'base/edgeops.yaml': yaml('role: base', 'vars:', '  domain: {type: string}', '  office_cidr: {type: cidr, default: 10.0.0.1/8}', '  ports: {type: list, default: []}'),
      'other/edgeops.yaml': yaml('role: base', 'vars: {domain: {type: hostport}}'),
      'bad/edgeops.yaml': yaml('role: base', 'stack: s', 'vars: {size: {type: integr}}'),
      'prod/edgeops.yaml': yaml('stack: edge-prod', 'base: [../base, ../other, ../bad]', 'vars: {domain: example.com}'),
      'prod/own.yaml': yaml('kind: IPPolicy', 'name: vpn', 'description: {template: 5}', '---', 'kind: IPPolicy', 'name: lan', 'description: {template: "${zone}.lan"}'),
    })).toEqual([
      'bad/edgeops.yaml:2:8: stack: does not belong in a base (role: base): set it in the stacks that use the base',
      'bad/edgeops.yaml:3:21: vars.size.type: must be one of string, integer, boolean, cidr, hostport, list, map',
      'base/edgeops.yaml:4:38: vars.office_cidr.default: "10.0.0.1/8" has host bits set; use the network address of the range (did you mean 10.0.0.0/8?) (declared as cidr)',
      'other/edgeops.yaml:2:8: vars.domain: declared as hostport here and as string at base/edgeops.yaml:3:3: the bases of one stack must agree',
      'prod/own.yaml:3:25: IPPolicy/vpn: {template: TEXT}: the text must be a string',
      'prod/own.yaml:7:25: IPPolicy/lan: {template}: ${zone}: no variable "zone" is declared by the stack\'s bases (declared: domain, office_cidr, ports)',
    ]);
  });

  it('a document defined in a base and again in the stack, and bases that are not bases', async () => {
    expect(await errors({
      'stack/edgeops.yaml': yaml('stack: s'),
      'prod/edgeops.yaml': yaml('stack: edge-prod', 'base: [../base, ../missing, ../stack]', 'vars: {domain: example.com}'),
      'prod/own.yaml': yaml('kind: IPPolicy', 'name: office'),
    })).toEqual([
      'prod/edgeops.yaml:2:17: base[1]: ../missing is not a directory (a base is a directory of documents, relative to this file)',
      'prod/edgeops.yaml:2:29: base[2]: ../stack is a stack, not a base: its edgeops.yaml (stack/edgeops.yaml) does not say role: base',
      'prod/own.yaml:2:1: IPPolicy/office: also defined in a base, at base/access.yaml:1:1: change it with a Patch (kind: Patch, target: IPPolicy/office) instead of defining it again',
    ]);
  });
});

describe('validate --format json', () => {
  it('gives a moved value\'s chain as via', () => {
    const issue = { pos: { file: 'prod/patches.yaml', line: 4, col: 34, via: 'Patch of HTTPSEdge/api; document at base/edges.yaml:1:1' }, address: 'HTTPSEdge/api', pointer: '/tls_termination/min_version', message: 'must be one of 1.0, 1.1, 1.2, 1.3' };
    const json = JSON.parse(renderValidateJson({ issues: [issue] })) as { problems: Record<string, unknown>[] };
    expect(json.problems[0]).toMatchObject({ file: 'prod/patches.yaml', line: 4, col: 34, via: 'Patch of HTTPSEdge/api; document at base/edges.yaml:1:1', field: 'tls_termination.min_version' });
  });
});

describe('a base is not a stack', () => {
  it('plan, apply, drift and list of a base refuse, naming the stacks that use it', () => {
    const cwd = writeTree(stack({ 'prod/edgeops.yaml': prodConfig('domain: a.com'), 'staging/edgeops.yaml': yaml('stack: s', 'base: [../base]') , '.git/HEAD': 'ref\n' }));
    let err: unknown;
    try {
      refuseBases([join('base', 'edges.yaml')], cwd, 'plan');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BaseNotStackError);
    expect((err as BaseNotStackError).message).toBe(
      'refusing to plan base/edges.yaml: base is a base (its edgeops.yaml says role: base), not a stack; it is the base of prod, staging\n' +
        'Run it on the stacks instead: edgeops plan prod staging',
    );
  });
});
