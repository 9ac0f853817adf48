import { describe, expect, it } from 'vitest';
import {
  type ColumnMapping,
  type ColumnOverrides,
  type ImportField,
  headerKey,
  looksLikePasswordHash,
  matchColumns,
} from '../../src/imports/reading/index.js';

const fields = (
  headers: string[],
  ...rest: Parameters<typeof matchColumns> extends [unknown, ...infer R] ? R : never
) => matchColumns(headers, ...rest).columns.map((column) => column.field);

const BCRYPT = '$2y$10$LaravelFixtureSalt012..VVtbDU26QVK4vnIylNdjYfwzGhI5f2';
const ARGON = '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG';

describe('matching header names to user fields', () => {
  it.each<[string, ImportField]>([
    ['Name', 'name'],
    ['FULL NAME', 'name'],
    ['Nom', 'name'],
    ['Nombre', 'name'],
    ['Display_Name', 'name'],
    ['E-Mail', 'email'],
    ['e-mail-Adresse', 'email'],
    ['Mail', 'email'],
    ['Email Address', 'email'],
    ['Courriel', 'email'],
    ['Role', 'roles'],
    ['ROLES', 'roles'],
    ['Active', 'is_active'],
    ['is_active', 'is_active'],
    ['Is Active', 'is_active'],
    ['Status', 'is_active'],
    ['Enabled', 'is_active'],
    ['Password', 'password'],
    ['Password Hash', 'password_hash'],
    ['hash', 'password_hash'],
    ['External ID', 'external_id'],
    ['external-id', 'external_id'],
  ])('maps %j to %s', (header, field) => {
    expect(fields([header])).toEqual([field]);
  });

  it('ignores case, accents, spaces, underscores and hyphens', () => {
    expect(['E-Mail-Adresse', ' Émail_Address ', 'display.name'].map(headerKey)).toEqual([
      'emailadresse',
      'emailaddress',
      'displayname',
    ]);
    // Courriel takes email; É-mail, naming it again, is reported as a duplicate.
    expect(fields(['  NÓM ', 'CoUrRiEl', 'É-mail'])).toEqual(['name', 'email', null]);
    expect(fields(['Émail'])).toEqual(['email']);
  });

  it('reports unknown columns without failing, and e-mail as missing when no column holds it', () => {
    const match = matchColumns(['Name', 'Department', 'Phone']);
    expect(match.unknown).toEqual(['Department', 'Phone']);
    expect(match.missing).toEqual(['email']);
    expect(match.columns).toEqual([
      { index: 0, header: 'Name', field: 'name' },
      { index: 1, header: 'Department', field: null },
      { index: 2, header: 'Phone', field: null },
    ]);
  });

  it('treats headers named like object properties as the unknown columns they are', () => {
    const match = matchColumns(['constructor', '__proto__', 'toString', 'email'], { email: 'email' });
    expect(match.columns.map((column) => column.field)).toEqual([null, null, null, 'email']);
    expect(match.unknown).toEqual(['constructor', '__proto__', 'toString']);
  });

  it('maps every roles column to roles, and only the first column of any other field', () => {
    const match = matchColumns(['Email', 'Role', 'Mail', 'Roles', 'role']);
    expect(match.columns.map((column) => column.field)).toEqual(['email', 'roles', null, 'roles', 'roles']);
    expect(match.duplicates).toEqual(['Mail']);
  });

  it("lets the user's overrides win, ignore a column, and claim a field from a name match", () => {
    const overrides: ColumnOverrides = { Login: 'email', Email: 'ignore', Nickname: 'name' };
    const match = matchColumns(['Login', 'Email', 'Nickname', 'Status'], overrides);
    const expected: ColumnMapping[] = [
      { index: 0, header: 'Login', field: 'email' },
      { index: 1, header: 'Email', field: null },
      { index: 2, header: 'Nickname', field: 'name' },
      { index: 3, header: 'Status', field: 'is_active' },
    ];
    expect(match.columns).toEqual(expected);
    expect(match.unknown).toEqual([]);
    expect(match.missing).toEqual([]);
  });

  it('recognises bcrypt and argon2id hashes by their shape, and nothing else', () => {
    expect(
      [BCRYPT, BCRYPT.replace('$2y$', '$2a$'), BCRYPT.replace('$2y$', '$2b$'), ARGON].map(looksLikePasswordHash),
    ).toEqual([true, true, true, true]);
    const others = [
      '$2x$10$LaravelFixtureSalt012..VVtbDU26QVK4vnIylNdjYfwzGhI5f2',
      '$argon2i$v=19$m=1,t=1,p=1$a$b',
      'md5$abc',
      'secret',
      `${BCRYPT}x`,
    ];
    expect(others.map(looksLikePasswordHash)).toEqual([false, false, false, false, false]);
  });

  it('maps a password column that holds only hashes to password_hash, judged by a sample', () => {
    const sample = (values: string[]) => values.map((value, i) => ({ line: i + 2, values: ['a@example.com', value] }));
    expect(fields(['email', 'password'], {}, sample([BCRYPT, '', ARGON]))).toEqual(['email', 'password_hash']);
    expect(fields(['email', 'password'], {}, sample([BCRYPT, 'plain-text-pass']))).toEqual(['email', 'password']);
    expect(fields(['email', 'password'], {}, sample(['', '']))).toEqual(['email', 'password']);
    expect(fields(['email', 'password'])).toEqual(['email', 'password']);
    expect(fields(['email', 'password'], { password: 'password' }, sample([BCRYPT]))).toEqual(['email', 'password']);
    // md5 and friends are not hashes this product accepts.
    expect(fields(['email', 'password'], {}, sample(['5f4dcc3b5aa765d61d8327deb882cf99']))).toEqual([
      'email',
      'password',
    ]);
  });
});

describe('matching header names to custom attributes', () => {
  const attributes = [
    { key: 'department', label: 'Department' },
    { key: 'cost_centre', label: 'Cost centre' },
    { key: 'full_name', label: 'Name' },
  ];

  it('matches an attribute by its key, its label or attributes.<key>, whatever the case', () => {
    expect(fields(['E-mail', 'DEPARTMENT', 'cost_centre'], {}, [], attributes)).toEqual([
      'email',
      'attributes.department',
      'attributes.cost_centre',
    ]);
    expect(fields(['email', 'Cost Centre', 'attributes.department'], {}, [], attributes)).toEqual([
      'email',
      'attributes.cost_centre',
      'attributes.department',
    ]);
  });

  it("keeps the user's own fields first, and leaves a header naming no attribute unknown", () => {
    const match = matchColumns(['Name', 'email', 'Shoe size', 'attributes.full_name'], {}, [], attributes);
    expect(match.columns.map((c) => c.field)).toEqual(['name', 'email', null, 'attributes.full_name']);
    expect(match.unknown).toEqual(['Shoe size']);
  });

  it('takes an attribute once, and a mapping to attributes.<key> by the caller', () => {
    const match = matchColumns(
      ['email', 'Department', 'department', 'Team'],
      { Team: 'attributes.cost_centre' },
      [],
      attributes,
    );
    expect(match.columns.map((c) => c.field)).toEqual([
      'email',
      'attributes.department',
      null,
      'attributes.cost_centre',
    ]);
    expect(match.duplicates).toEqual(['department']);
  });
});
