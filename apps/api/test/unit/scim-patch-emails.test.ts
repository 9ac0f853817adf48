import { describe, expect, it } from 'vitest';
import { applyUserPatch } from '../../src/scim/patch/user-patch.js';
import { ada, patchOp, refusal } from './scim-patch-support.js';

const emailsAfter = (...ops: unknown[]) => applyUserPatch(ada(), patchOp(...ops)).emails;

describe('emails, a multi-valued attribute', () => {
  it('add appends a new address', () => {
    expect(emailsAfter({ op: 'add', path: 'emails', value: [{ value: 'ada@club.example', type: 'other' }] })).toEqual([
      ...ada().emails,
      { value: 'ada@club.example', type: 'other' },
    ]);
  });

  it('add of an address already there (in any case) does not repeat it', () => {
    const emails = emailsAfter({ op: 'add', path: 'emails', value: [{ value: 'ADA@home.example', type: 'home' }] });
    expect(emails).toHaveLength(2);
    expect(emails.map((e) => e.value.toLowerCase())).toEqual(['ada@example.com', 'ada@home.example']);
  });

  it('add without a path appends too', () => {
    expect(emailsAfter({ op: 'add', value: { emails: [{ value: 'new@example.com' }] } })).toHaveLength(3);
  });

  it('replace without a filter replaces every value', () => {
    expect(
      emailsAfter({ op: 'replace', path: 'emails', value: [{ value: 'only@example.com', primary: 'True' }] }),
    ).toEqual([{ value: 'only@example.com', primary: true }]);
  });

  it('replace keeps one of an address given twice in different case', () => {
    const emails = emailsAfter({
      op: 'replace',
      path: 'emails',
      value: [
        { value: 'Same@example.com', type: 'work' },
        { value: 'same@EXAMPLE.com', primary: true },
      ],
    });
    expect(emails).toEqual([{ value: 'same@EXAMPLE.com', type: 'work', primary: true }]);
  });

  it('replace with a filter replaces the values it matches, comparing type without case', () => {
    expect(
      emailsAfter({
        op: 'replace',
        path: 'emails[type eq "HOME"]',
        value: { value: 'ada@new-home.example', type: 'home' },
      }),
    ).toEqual([ada().emails[0], { value: 'ada@new-home.example', type: 'home' }]);
  });

  it('replace of a sub-attribute through a filter changes only the matches', () => {
    expect(
      emailsAfter({ op: 'replace', path: 'emails[primary eq true].value', value: 'lovelace@example.com' })[0],
    ).toEqual({
      value: 'lovelace@example.com',
      type: 'work',
      primary: true,
    });
  });

  it('replace with a filter that matches nothing: noTarget (RFC 7644 §3.5.2.3)', () => {
    const r = refusal(() => emailsAfter({ op: 'replace', path: 'emails[type eq "other"].value', value: 'x@y.com' }));
    expect(r).toEqual({ status: 400, scimType: 'noTarget' });
    expect(
      refusal(() => emailsAfter({ op: 'replace', path: 'emails[type eq "other"]', value: { value: 'x@y.com' } }))
        .scimType,
    ).toBe('noTarget');
  });

  it("add through a filter that matches nothing creates the value the filter names (Entra's work address)", () => {
    const user = { ...ada(), emails: [] };
    const after = applyUserPatch(user, patchOp({ op: 'Add', path: 'emails[type eq "work"].value', value: 'x@y.com' }));
    expect(after.emails).toEqual([{ value: 'x@y.com', type: 'work' }]);
  });

  it('remove with a filter removes the matches', () => {
    expect(emailsAfter({ op: 'remove', path: 'emails[type eq "home"]' })).toEqual([ada().emails[0]]);
    expect(emailsAfter({ op: 'remove', path: 'emails[value eq "ADA@HOME.EXAMPLE"]' })).toEqual([ada().emails[0]]);
  });

  it('remove with a filter that matches nothing leaves the list as it was (a retried remove succeeds)', () => {
    expect(emailsAfter({ op: 'remove', path: 'emails[type eq "other"]' })).toEqual(ada().emails);
  });

  it('remove of a sub-attribute through a filter keeps the address', () => {
    expect(emailsAfter({ op: 'remove', path: 'emails[type eq "work"].primary' })[0]).toEqual({
      value: 'ada@example.com',
      type: 'work',
    });
  });

  it('remove of "emails" with values removes those (Okta), without a value removes all', () => {
    expect(emailsAfter({ op: 'remove', path: 'emails', value: [{ value: 'ada@home.example' }] })).toEqual([
      ada().emails[0],
    ]);
    expect(emailsAfter({ op: 'remove', path: 'emails' })).toEqual([]);
  });

  it('a second primary demotes the first', () => {
    const emails = emailsAfter({ op: 'add', path: 'emails', value: [{ value: 'boss@example.com', primary: true }] });
    expect(emails.filter((e) => e.primary)).toEqual([{ value: 'boss@example.com', primary: true }]);
    expect(emails[0]?.primary).toBe(false);
  });

  it('making an existing address primary demotes the former primary', () => {
    const emails = emailsAfter({ op: 'replace', path: 'emails[type eq "home"].primary', value: true });
    expect(emails.map((e) => e.primary)).toEqual([false, true]);
  });

  it('an e-mail sub-attribute outside the schema: invalidPath', () => {
    expect(
      refusal(() => emailsAfter({ op: 'replace', path: 'emails[type eq "work"].colour', value: 'red' })).scimType,
    ).toBe('invalidPath');
  });

  it('a primary that is not a boolean: invalidValue', () => {
    expect(
      refusal(() => emailsAfter({ op: 'replace', path: 'emails[type eq "work"].primary', value: 'yes' })).scimType,
    ).toBe('invalidValue');
  });
});
