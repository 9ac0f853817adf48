import { SCIM_SCHEMAS } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { applyUserPatch } from '../../src/scim/patch/user-patch.js';
import { ada, patchOp, refusal } from './scim-patch-support.js';

const ENT = SCIM_SCHEMAS.enterpriseUser;

describe('a user PATCH as identity providers send it', () => {
  it("applies Okta's documented deactivation (replace without a path)", () => {
    const body = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    };
    expect(applyUserPatch(ada(), body).active).toBe(false);
  });

  it("applies Entra's documented update: capitalised ops, a string boolean, a filtered e-mail, a name part", () => {
    const body = {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Replace', path: 'active', value: 'False' },
        { op: 'Add', path: 'emails[type eq "work"].value', value: 'x@y.com' },
        { op: 'Replace', path: 'name.familyName', value: 'Z' },
      ],
    };
    const after = applyUserPatch(ada(), body);
    expect(after.active).toBe(false);
    expect(after.emails).toEqual([
      { value: 'x@y.com', type: 'work', primary: true },
      { value: 'ada@home.example', type: 'home' },
    ]);
    // The product keeps one name: a part replaced alone makes the full name again from the parts.
    expect(after.name).toEqual({ formatted: null, givenName: 'Ada', familyName: 'Z' });
  });

  it('reads a no-path value whose keys are paths, core and enterprise (Entra)', () => {
    const after = applyUserPatch(
      ada(),
      patchOp({
        op: 'Replace',
        value: { 'name.givenName': 'Augusta', [`${ENT}:department`]: 'Analytics', displayName: 'A. L.' },
      }),
    );
    expect(after.name.givenName).toBe('Augusta');
    expect(after.displayName).toBe('A. L.');
    expect(after.enterprise).toEqual({ department: 'Analytics' });
  });

  it('reads the enterprise extension as an object under its URN', () => {
    const after = applyUserPatch(
      ada(),
      patchOp({ op: 'add', value: { [ENT]: { costCenter: 'C-12', employeeNumber: '701' } } }),
    );
    expect(after.enterprise).toEqual({ department: 'Engines', costCenter: 'C-12', employeeNumber: '701' });
  });

  it('sets simple attributes by path, with or without the core URN, whatever their case', () => {
    const after = applyUserPatch(
      ada(),
      patchOp(
        { op: 'replace', path: 'USERNAME', value: 'ada.lovelace@contoso.com' },
        { op: 'replace', path: `${SCIM_SCHEMAS.user}:name.givenName`, value: 'Augusta' },
        { op: 'add', path: 'externalId', value: 'entra-42' },
        { op: 'replace', path: 'active', value: 'True' },
      ),
    );
    expect(after).toMatchObject({ userName: 'ada.lovelace@contoso.com', externalId: 'entra-42', active: true });
    expect(after.name.givenName).toBe('Augusta');
  });

  it('replaces a complex attribute by the sub-attributes given, leaving the others', () => {
    const after = applyUserPatch(ada(), patchOp({ op: 'replace', path: 'name', value: { familyName: 'King' } }));
    expect(after.name).toEqual({ formatted: null, givenName: 'Ada', familyName: 'King' });
  });

  it('keeps a formatted name the same PATCH changed, before or after the parts', () => {
    const name = { formatted: 'Augusta Ada King', givenName: 'Augusta Ada', familyName: 'King' };
    const together = applyUserPatch(ada(), patchOp({ op: 'replace', path: 'name', value: name }));
    expect(together.name).toEqual(name);
    const apart = applyUserPatch(
      ada(),
      patchOp(
        { op: 'replace', path: 'name.formatted', value: name.formatted },
        { op: 'replace', path: 'name.givenName', value: name.givenName },
        { op: 'replace', path: 'name.familyName', value: name.familyName },
      ),
    );
    expect(apart.name).toEqual(name);
  });

  it('removes optional attributes and name parts', () => {
    const after = applyUserPatch(
      ada(),
      patchOp(
        { op: 'remove', path: 'externalId' },
        { op: 'remove', path: 'name.formatted' },
        { op: 'Remove', path: 'displayName' },
      ),
    );
    expect(after).toMatchObject({ externalId: null, displayName: null });
    expect(after.name.formatted).toBeNull();
  });

  it('accepts and drops core attributes the product does not keep (Entra sends title and phone numbers)', () => {
    const after = applyUserPatch(
      ada(),
      patchOp(
        { op: 'Add', path: 'title', value: 'Analyst' },
        { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '+44 20 7946 0000' },
        { op: 'Replace', path: 'name.middleName', value: 'Byron' },
      ),
    );
    expect(after).toEqual(ada());
  });

  it('ignores read-only attributes inside a no-path value, as a PUT ignores them', () => {
    const after = applyUserPatch(
      ada(),
      patchOp({ op: 'replace', value: { id: '5', schemas: [SCIM_SCHEMAS.user], meta: {}, active: false } }),
    );
    expect(after).toEqual({ ...ada(), active: false });
  });

  it('does not change the user it was given, and applies operations in order', () => {
    const before = ada();
    const after = applyUserPatch(
      before,
      patchOp(
        { op: 'replace', path: 'displayName', value: 'First' },
        { op: 'replace', path: 'displayName', value: 'Second' },
      ),
    );
    expect(after.displayName).toBe('Second');
    expect(before).toEqual(ada());
  });
});

describe('the enterprise manager', () => {
  it('takes {value} or a bare id (Entra), and an empty one unsets it', () => {
    const withObject = applyUserPatch(
      ada(),
      patchOp({ op: 'replace', path: `${ENT}:manager`, value: { value: '26' } }),
    );
    expect(withObject.enterprise.manager).toEqual({ value: '26' });
    const bare = applyUserPatch(ada(), patchOp({ op: 'Add', path: `${ENT}:manager`, value: '27' }));
    expect(bare.enterprise.manager).toEqual({ value: '27' });
    const cleared = applyUserPatch(withObject, patchOp({ op: 'Replace', path: `${ENT}:manager`, value: '' }));
    expect(cleared.enterprise).not.toHaveProperty('manager');
  });

  it('is removed by path', () => {
    const withManager = { ...ada(), enterprise: { manager: { value: '26' } } };
    expect(applyUserPatch(withManager, patchOp({ op: 'remove', path: `${ENT}:manager` })).enterprise).toEqual({});
  });
});

describe('a user PATCH is refused with the right scimType', () => {
  const bad = (...ops: unknown[]) => refusal(() => applyUserPatch(ada(), patchOp(...ops)));

  it('a body without the PatchOp schema: invalidSyntax', () => {
    expect(refusal(() => applyUserPatch(ada(), { Operations: [{ op: 'replace', value: { active: false } }] }))).toEqual(
      {
        status: 400,
        scimType: 'invalidSyntax',
      },
    );
  });

  it('no operations, or operations that are not an array: invalidSyntax', () => {
    expect(bad().scimType).toBe('invalidSyntax');
    expect(refusal(() => applyUserPatch(ada(), { schemas: [SCIM_SCHEMAS.patchOp], Operations: {} })).scimType).toBe(
      'invalidSyntax',
    );
  });

  it('more than 1 000 operations: invalidValue', () => {
    const ops = Array.from({ length: 1001 }, () => ({ op: 'replace', path: 'displayName', value: 'x' }));
    expect(bad(...ops).scimType).toBe('invalidValue');
    expect(() => applyUserPatch(ada(), patchOp(...ops.slice(0, 1000)))).not.toThrow();
  });

  it('an unknown op: invalidSyntax', () => {
    expect(bad({ op: 'merge', path: 'displayName', value: 'x' }).scimType).toBe('invalidSyntax');
  });

  it('add or replace without a value: invalidSyntax', () => {
    expect(bad({ op: 'add', path: 'displayName' }).scimType).toBe('invalidSyntax');
  });

  it('remove without a path: noTarget', () => {
    expect(bad({ op: 'remove' }).scimType).toBe('noTarget');
  });

  it('removing the required userName: mutability', () => {
    expect(bad({ op: 'remove', path: 'userName' }).scimType).toBe('mutability');
  });

  it('removing active (an account is always active or not): mutability', () => {
    expect(bad({ op: 'remove', path: 'active' }).scimType).toBe('mutability');
  });

  it.each(['id', 'meta', 'groups', 'meta.lastModified'])('writing read-only %s: mutability', (path) => {
    expect(bad({ op: 'replace', path, value: 'x' }).scimType).toBe('mutability');
  });

  it('an attribute outside the User schema: invalidPath', () => {
    expect(bad({ op: 'replace', path: 'shoeSize', value: 42 }).scimType).toBe('invalidPath');
    expect(bad({ op: 'replace', value: { shoeSize: 42 } }).scimType).toBe('invalidPath');
    expect(bad({ op: 'replace', path: 'name.nickname', value: 'x' }).scimType).toBe('invalidPath');
  });

  it('an unknown enterprise attribute or schema: invalidPath', () => {
    expect(bad({ op: 'add', path: `${ENT}:shoeSize`, value: '42' }).scimType).toBe('invalidPath');
    expect(bad({ op: 'add', path: 'urn:example:ext:1.0:User:x', value: '42' }).scimType).toBe('invalidPath');
  });

  it('a sub-attribute of a simple attribute: invalidPath', () => {
    expect(bad({ op: 'replace', path: 'active.value', value: true }).scimType).toBe('invalidPath');
  });

  it('a malformed value filter: invalidFilter', () => {
    expect(bad({ op: 'replace', path: 'emails[type eq].value', value: 'x@y.com' }).scimType).toBe('invalidFilter');
  });

  it.each([
    ['active', 'maybe'],
    ['active', 1],
    ['userName', ''],
    ['userName', 7],
    ['displayName', { text: 'x' }],
    ['name', 'Ada'],
    ['emails', [{ type: 'work' }]],
    [`${ENT}:department`, 12],
    [`${ENT}:manager`, 12],
    [`${ENT}:manager`, { displayName: 'Charles' }],
  ])('a value of the wrong type for %s: invalidValue', (path, value) => {
    expect(bad({ op: 'replace', path, value }).scimType).toBe('invalidValue');
  });

  it('a no-path value that is not an object: invalidValue', () => {
    expect(bad({ op: 'replace', value: false }).scimType).toBe('invalidValue');
  });

  it('all or nothing: a bad operation after good ones throws, whatever came before', () => {
    const before = ada();
    expect(
      refusal(() =>
        applyUserPatch(
          before,
          patchOp({ op: 'replace', path: 'active', value: false }, { op: 'remove', path: 'userName' }),
        ),
      ).scimType,
    ).toBe('mutability');
    expect(before.active).toBe(true);
  });
});
