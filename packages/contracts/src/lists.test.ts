import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuditListResultSchema } from './audit/audit';
import { exportShape, idListParam, listResultSchema, MAX_IDS } from './lists';
import { accept, refuse } from './test-support';
import { UsersListResultSchema } from './users/users.schemas';
import { WebhookDeliveryListSchema } from './webhooks/webhooks';

const meta = { page: 1, perPage: 25, total: 0, totalExact: true, pageCount: 0 };

describe('the list envelope', () => {
  it('is {rows, meta} and then what the resource adds, in that order', () => {
    const schema = listResultSchema(z.object({ id: z.number() }), { filters: z.record(z.string(), z.unknown()) });
    expect(Object.keys(schema.shape)).toEqual(['rows', 'meta', 'filters']);
    expect(accept(schema, { rows: [{ id: 1 }], meta, filters: {} }).rows).toEqual([{ id: 1 }]);
  });

  it('is the same for users, the audit log and the delivery log', () => {
    for (const schema of [UsersListResultSchema, AuditListResultSchema, WebhookDeliveryListSchema]) {
      expect(Object.keys(schema.shape).slice(0, 2)).toEqual(['rows', 'meta']);
    }
  });

  it('refuses a delivery log in the old `items` envelope', () => {
    expect(refuse(WebhookDeliveryListSchema, { items: [], meta }).errors).toEqual({ rows: [expect.any(String)] });
    expect(accept(WebhookDeliveryListSchema, { rows: [], meta })).toEqual({ rows: [], meta });
  });
});

describe('an export’s own parameters', () => {
  const schema = z.object(exportShape(['id', 'name'] as const));

  it('default to CSV and every column in the column set’s order', () => {
    expect(accept(schema, {})).toEqual({ format: 'csv', columns: ['id', 'name'] });
  });

  it('read the format in any case and keep the columns as picked, once each', () => {
    expect(accept(schema, { format: 'XLSX', columns: ['name', 'id', 'name'] })).toEqual({
      format: 'xlsx',
      columns: ['name', 'id'],
    });
  });

  it('refuse an unknown format or column, naming the choices', () => {
    expect(refuse(schema, { format: 'pdf' }).errors).toEqual({ format: ['Format must be one of: csv, xlsx, json.'] });
    expect(refuse(schema, { columns: ['password'] }).errors).toEqual({
      'columns.0': ['Columns must be some of: id, name.'],
    });
  });
});

describe('an id list parameter', () => {
  const schema = z.object({ ids: idListParam });

  it('reads ids from text or numbers and drops repeats', () => {
    expect(accept(schema, { ids: ['3', 5, '3'] }).ids).toEqual([3, 5]);
  });

  it(`refuses more than ${MAX_IDS} ids`, () => {
    const ids = Array.from({ length: MAX_IDS + 1 }, (_, i) => i + 1);
    expect(refuse(schema, { ids }).errors).toEqual({ ids: [`Give at most ${MAX_IDS} ids.`] });
  });
});
