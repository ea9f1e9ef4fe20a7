// `moved_from` in documents: the old names it accepts, what it rejects (with file:line:col), and that it never
// reaches the resource's request body.
import { describe, expect, it } from 'vitest';
import { errorLines, readTree, yaml } from './tree.ts';

describe('moved_from', () => {
  it('takes an old name, Kind/old-name, or a list, and keeps them out of the spec', async () => {
    const state = await readTree({
      'm.yaml': yaml(
        'kind: TCPEdge', 'name: ssh-bastion', 'moved_from: ssh', '---',
        'kind: IPPolicy', 'name: office-vpn', 'moved_from: [IPPolicy/office, old-office]',
      ),
    });
    const byAddress = new Map(state.resources.map((r) => [r.address, r]));
    expect(byAddress.get('TCPEdge/ssh-bastion')!.movedFrom).toEqual(['TCPEdge/ssh']);
    expect(byAddress.get('IPPolicy/office-vpn')!.movedFrom).toEqual(['IPPolicy/office', 'IPPolicy/old-office']);
    expect(byAddress.get('TCPEdge/ssh-bastion')!.spec).toEqual({});
  });

  it('rejects an old name that is still a document, a move across kinds, its own name and one old name twice', async () => {
    expect(
      await errorLines({
        'm.yaml': yaml(
          'kind: TCPEdge', 'name: ssh', '---',
          'kind: TCPEdge', 'name: ssh-bastion', 'moved_from: ssh', '---',
          'kind: TCPEdge', 'name: web', 'moved_from: [TLSEdge/web, web]', '---',
          'kind: TCPEdge', 'name: a', 'moved_from: old', '---',
          'kind: TCPEdge', 'name: b', 'moved_from: old',
        ),
      }),
    ).toEqual([
      'm.yaml:6:13: TCPEdge/ssh-bastion: moved_from: TCPEdge/ssh is also a document (at m.yaml:2:7); a resource cannot move from a name that still exists',
      'm.yaml:10:14: TCPEdge/web: moved_from: "TLSEdge/web" is a TLSEdge; a TCPEdge can only move from another TCPEdge name (a move across kinds is a delete and a create)',
      'm.yaml:10:27: TCPEdge/web: moved_from: "web" is this document\'s own name',
      'm.yaml:18:13: TCPEdge/b: moved_from: TCPEdge/old is also named by TCPEdge/a (at m.yaml:14:13); one resource can move to one name only',
    ]);
  });

  it('rejects a value that is not a name', async () => {
    const lines = await errorLines({ 'm.yaml': yaml('kind: TCPEdge', 'name: a', 'moved_from: Not_A_Name') });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^m\.yaml:3:13: TCPEdge\/a: moved_from/);
  });
});
