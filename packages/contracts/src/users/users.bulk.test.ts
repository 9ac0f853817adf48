import { describe, expect, it } from 'vitest';
import { accept, refuse } from '../test-support';
import { BulkInputSchema, BulkReportSchema } from './users.bulk';
import { BULK_PERMISSIONS } from './users.bulk-operations';

const range = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

describe('bulk input', () => {
  it('accepts an operation on ids and defaults dryRun to false', () => {
    expect(accept(BulkInputSchema, { operation: 'delete', ids: [1, 2] })).toEqual({
      operation: 'delete',
      ids: [1, 2],
      dryRun: false,
    });
  });

  it('accepts 10 000 ids', () => {
    expect(accept(BulkInputSchema, { operation: 'restore', ids: range(10_000) }).ids).toHaveLength(10_000);
  });

  it('refuses 10 001 ids at ids', () => {
    expect(refuse(BulkInputSchema, { operation: 'restore', ids: range(10_001) }).errors).toEqual({
      ids: ['Give at most 10000 ids.'],
    });
  });

  it('refuses an empty list of ids', () => {
    expect(refuse(BulkInputSchema, { operation: 'delete', ids: [] }).errors).toEqual({
      ids: ['Select at least one user.'],
    });
  });

  it('refuses a duplicate id at the index of the duplicate', () => {
    expect(refuse(BulkInputSchema, { operation: 'delete', ids: [4, 5, 4] }).errors).toEqual({
      'ids.2': ['Id 4 is listed more than once.'],
    });
  });

  it('refuses a negative id at its index', () => {
    expect(refuse(BulkInputSchema, { operation: 'delete', ids: [1, -2] }).errors).toEqual({
      'ids.1': ['Each id must be a whole number of 1 or more.'],
    });
  });

  it('refuses a fractional id at its index', () => {
    expect(Object.keys(refuse(BulkInputSchema, { operation: 'delete', ids: [1.5] }).errors)).toEqual(['ids.0']);
  });

  it('refuses setActive without active, at active', () => {
    expect(refuse(BulkInputSchema, { operation: 'setActive', ids: [1] }).errors).toEqual({
      active: ['Say whether to activate or deactivate: active must be true or false.'],
    });
  });

  it('reports a missing active together with bad ids', () => {
    expect(Object.keys(refuse(BulkInputSchema, { operation: 'setActive', ids: [0] }).errors).sort()).toEqual([
      'active',
      'ids.0',
    ]);
  });

  it('accepts setActive with active and dryRun', () => {
    expect(accept(BulkInputSchema, { operation: 'setActive', ids: [1], active: false, dryRun: true })).toMatchObject({
      active: false,
      dryRun: true,
    });
  });

  it('refuses an unknown operation, listing the allowed ones', () => {
    expect(refuse(BulkInputSchema, { operation: 'archive', ids: [1] }).errors).toEqual({
      operation: [
        'Operation must be one of: delete, restore, forceDelete, setActive, addRole, removeRole, invite, setAttribute.',
      ],
    });
  });

  it('names the permission each operation needs', () => {
    expect(BULK_PERMISSIONS).toEqual({
      delete: 'users.delete',
      restore: 'users.restore',
      forceDelete: 'users.forceDelete',
      setActive: 'users.setActive',
      addRole: 'users.update',
      removeRole: 'users.update',
      invite: 'users.update',
      setAttribute: 'users.update',
    });
  });

  it('accepts setAttribute with an attribute key and a value, null included (it clears)', () => {
    expect(
      accept(BulkInputSchema, { operation: 'setAttribute', ids: [1], attribute: 'department', value: 'Sales' }),
    ).toMatchObject({ attribute: 'department', value: 'Sales' });
    expect(
      accept(BulkInputSchema, { operation: 'setAttribute', ids: [1], attribute: 'department', value: null }).value,
    ).toBeNull();
    expect(accept(BulkInputSchema, { operation: 'setAttribute', ids: [1], attribute: 'band', value: 3 }).value).toBe(3);
  });

  it('refuses setAttribute without its attribute or its value, and a key that is not one', () => {
    expect(refuse(BulkInputSchema, { operation: 'setAttribute', ids: [1] }).errors).toEqual({
      attribute: ['Say which attribute to set: attribute (its key) is required.'],
      value: ['Say which value to give: value is required (null clears it).'],
    });
    expect(
      Object.keys(
        refuse(BulkInputSchema, { operation: 'setAttribute', ids: [1], attribute: 'Dept!', value: 1 }).errors,
      ),
    ).toEqual(['attribute']);
    expect(
      Object.keys(
        refuse(BulkInputSchema, { operation: 'setAttribute', ids: [1], attribute: 'd', value: { a: 1 } }).errors,
      ),
    ).toEqual(['value']);
  });

  it('accepts addRole and removeRole with a role id, on ids or a selection', () => {
    expect(accept(BulkInputSchema, { operation: 'addRole', ids: [1, 2], role_id: 3 })).toEqual({
      operation: 'addRole',
      ids: [1, 2],
      role_id: 3,
      dryRun: false,
    });
    expect(
      accept(BulkInputSchema, { operation: 'removeRole', selection: { query: {} }, role_id: 3, dryRun: true }),
    ).toMatchObject({ operation: 'removeRole', role_id: 3, dryRun: true, selection: { except: [] } });
  });

  it('refuses addRole and removeRole without a role id, at role_id', () => {
    expect(refuse(BulkInputSchema, { operation: 'addRole', ids: [1] }).errors).toEqual({
      role_id: ['Say which role to give: role_id is required.'],
    });
    expect(refuse(BulkInputSchema, { operation: 'removeRole', ids: [1] }).errors).toEqual({
      role_id: ['Say which role to take away: role_id is required.'],
    });
  });

  it('refuses a role id that is not a whole number of 1 or more', () => {
    expect(refuse(BulkInputSchema, { operation: 'addRole', ids: [1], role_id: 0 }).errors).toEqual({
      role_id: ['A role id must be a whole number of 1 or more.'],
    });
  });

  it('reports a role already held or not held as a skip code', () => {
    const report = {
      operation: 'addRole',
      dryRun: false,
      requested: 2,
      affected: [],
      skipped: [
        { id: 1, code: 'ROLE_ALREADY_HELD', message: 'Ann already has the role editor.' },
        { id: 2, code: 'ROLE_NOT_HELD', message: 'Bo does not have the role editor.' },
      ],
    };
    expect(BulkReportSchema.parse(report)).toEqual(report);
  });

  it('describes the report, skipped entries with their codes', () => {
    const report = {
      operation: 'delete',
      dryRun: true,
      requested: 3,
      affected: [1],
      skipped: [
        { id: 2, code: 'LAST_ADMIN', message: 'This would leave no active administrator.' },
        { id: 9, code: 'NOT_FOUND', message: 'There is no user with id 9.' },
      ],
    };
    expect(BulkReportSchema.parse(report)).toEqual(report);
  });
});
