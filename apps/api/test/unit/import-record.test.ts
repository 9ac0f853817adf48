import { describe, expect, it } from 'vitest';
import { type ImportRecord, matchColumns, parseActive, recordOf, splitRoles } from '../../src/imports/reading/index.js';

describe('reading an active cell', () => {
  it.each(['true', 'TRUE', ' 1 ', 'yes', 'Y', 'active', 'Enabled'])('reads %j as true', (raw) => {
    expect(parseActive(raw)).toBe(true);
  });
  it.each(['false', 'False', '0', 'no', 'N', 'inactive', 'DISABLED'])('reads %j as false', (raw) => {
    expect(parseActive(raw)).toBe(false);
  });
  it('reads an empty cell as no value, and anything else as neither', () => {
    expect(parseActive('  ')).toBeNull();
    expect(parseActive('maybe')).toBeUndefined();
    expect(parseActive('2')).toBeUndefined();
  });
});

describe('turning a row into a user record', () => {
  const headers = ['Name', 'E-Mail', 'Roles', 'Active', 'Role', 'Password', 'External ID', 'Team'];
  const { columns } = matchColumns(headers);

  it('reads every field, concatenating repeated roles columns', () => {
    const row = {
      line: 2,
      values: ['Zoë', 'zoe@example.com', 'editor; viewer|', 'yes', 'manager,auditor', 'pw-1', 'E1', 'x'],
    };
    expect(recordOf(row, columns)).toEqual({
      record: {
        id: null,
        name: 'Zoë',
        email: 'zoe@example.com',
        roles: ['editor', 'viewer', 'manager', 'auditor'],
        is_active: true,
        isActiveRaw: 'yes',
        password: 'pw-1',
        password_hash: null,
        external_id: 'E1',
        attributes: {},
      },
    });
  });

  it('leaves empty cells as null so the caller defaults apply', () => {
    const row = { line: 3, values: ['', 'a@example.com', '', '', ' ', '', '', ''] };
    const record: ImportRecord = {
      id: null,
      name: null,
      email: 'a@example.com',
      roles: null,
      is_active: null,
      password: null,
      password_hash: null,
      external_id: null,
      attributes: {},
    };
    expect(recordOf(row, columns)).toEqual({ record });
  });

  it('answers BAD_ACTIVE with a sentence naming the value', () => {
    const row = { line: 4, values: ['Ann', 'ann@example.com', '', 'sometimes', '', '', '', ''] };
    expect(recordOf(row, columns)).toEqual({
      error: {
        code: 'BAD_ACTIVE',
        message: '"sometimes" is not an active value; use true or false, yes or no, 1 or 0, active or inactive.',
      },
    });
  });

  it("passes on the reader's row problem", () => {
    const row = {
      line: 5,
      values: ['', '', '', '', '', '', '', ''],
      problem: { code: 'NOT_AN_OBJECT' as const, message: 'Item on line 5 is not an object with named fields.' },
    };
    expect(recordOf(row, columns)).toEqual({ error: row.problem });
  });

  it('splits roles at ; | , and line breaks, trimmed, empties dropped', () => {
    expect(splitRoles(' admin ;editor||viewer,\nauditor ')).toEqual(['admin', 'editor', 'viewer', 'auditor']);
    expect(splitRoles(' ; | ')).toEqual([]);
  });
});
