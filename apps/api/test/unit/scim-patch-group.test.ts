import { describe, expect, it } from 'vitest';
import { planGroupPatch } from '../../src/scim/patch/group-patch.js';
import { patchOp, refusal } from './scim-patch-support.js';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

describe('a group PATCH becomes a plan of member changes', () => {
  it("reads Entra's documented member add", () => {
    const body = {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: '12' }] }],
    };
    expect(planGroupPatch(body)).toEqual({ members: [{ op: 'add', ids: ['12'] }] });
  });

  it("reads Entra's documented member remove by filter", () => {
    const body = { schemas: [PATCH_OP], Operations: [{ op: 'Remove', path: 'members[value eq "12"]' }] };
    expect(planGroupPatch(body)).toEqual({ members: [{ op: 'remove', ids: ['12'] }] });
  });

  it("reads Okta's remove with the members in the value", () => {
    const body = patchOp({
      op: 'remove',
      path: 'members',
      value: [{ value: '7', display: 'ada@example.com' }, { value: '9' }],
    });
    expect(planGroupPatch(body).members).toEqual([{ op: 'remove', ids: ['7', '9'] }]);
  });

  it('remove of "members" with no filter and no value removes them all', () => {
    expect(planGroupPatch(patchOp({ op: 'remove', path: 'members' })).members).toEqual([{ op: 'removeAll' }]);
  });

  it('replace of "members" names exactly the members to keep', () => {
    expect(
      planGroupPatch(patchOp({ op: 'replace', path: 'members', value: [{ value: '3' }, { value: '3' }] })).members,
    ).toEqual([{ op: 'replace', ids: ['3'] }]);
    expect(planGroupPatch(patchOp({ op: 'replace', path: 'members', value: [] })).members).toEqual([
      { op: 'replace', ids: [] },
    ]);
  });

  it('renames by path, and without a path as Okta sends it (with the id, which is ignored)', () => {
    expect(planGroupPatch(patchOp({ op: 'Replace', path: 'displayName', value: 'Help Desk' }))).toEqual({
      displayName: 'Help Desk',
      members: [],
    });
    const okta = patchOp({ op: 'replace', value: { id: '5', displayName: 'Sales – EMEA', members: [{ value: '8' }] } });
    expect(planGroupPatch(okta)).toEqual({ displayName: 'Sales – EMEA', members: [{ op: 'replace', ids: ['8'] }] });
  });

  it('keeps the changes in the order they came, filters joined by "or" included', () => {
    const plan = planGroupPatch(
      patchOp(
        { op: 'add', path: 'members', value: [{ value: '1' }, { value: '2' }] },
        { op: 'remove', path: 'members[value eq "1" or value eq "3"]' },
        { op: 'replace', path: 'externalId', value: 'grp-9' },
      ),
    );
    expect(plan).toEqual({
      externalId: 'grp-9',
      members: [
        { op: 'add', ids: ['1', '2'] },
        { op: 'remove', ids: ['1', '3'] },
      ],
    });
  });
});

describe('a group PATCH is refused with the right scimType', () => {
  const bad = (...ops: unknown[]) => refusal(() => planGroupPatch(patchOp(...ops)));

  it('a body without the PatchOp schema: invalidSyntax', () => {
    expect(
      refusal(() => planGroupPatch({ schemas: [], Operations: [{ op: 'remove', path: 'members' }] })).scimType,
    ).toBe('invalidSyntax');
  });

  it.each([[{ value: 'abc' }], [{ value: 12 }], [{ id: '12' }], ['12']])(
    'a member that is not {value: "<digits>"} (%j): invalidValue',
    (m) => {
      expect(bad({ op: 'add', path: 'members', value: [m] })).toEqual({ status: 400, scimType: 'invalidValue' });
    },
  );

  it('a filter on members naming a non-numeric id: invalidValue', () => {
    expect(bad({ op: 'remove', path: 'members[value eq "x-1"]' }).scimType).toBe('invalidValue');
  });

  it('a members filter other than value eq: invalidFilter', () => {
    expect(bad({ op: 'remove', path: 'members[display eq "Ada"]' }).scimType).toBe('invalidFilter');
  });

  it.each(['id', 'meta'])('writing %s: mutability', (path) => {
    expect(bad({ op: 'replace', path, value: '1' }).scimType).toBe('mutability');
  });

  it('removing the displayName: mutability', () => {
    expect(bad({ op: 'remove', path: 'displayName' }).scimType).toBe('mutability');
  });

  it('an empty or non-string displayName: invalidValue', () => {
    expect(bad({ op: 'replace', path: 'displayName', value: ' ' }).scimType).toBe('invalidValue');
    expect(bad({ op: 'replace', value: { displayName: 3 } }).scimType).toBe('invalidValue');
  });

  it('an attribute a group does not have: invalidPath', () => {
    expect(bad({ op: 'replace', path: 'owner', value: '1' }).scimType).toBe('invalidPath');
  });

  it('add or replace through a members filter: invalidPath', () => {
    expect(bad({ op: 'add', path: 'members[value eq "1"]', value: [{ value: '2' }] }).scimType).toBe('invalidPath');
  });

  it('remove without a path: noTarget', () => {
    expect(bad({ op: 'Remove', value: { members: [{ value: '1' }] } }).scimType).toBe('noTarget');
  });

  it('an op that is not add, replace or remove: invalidSyntax', () => {
    expect(bad({ op: 'delete', path: 'members' }).scimType).toBe('invalidSyntax');
  });
});
