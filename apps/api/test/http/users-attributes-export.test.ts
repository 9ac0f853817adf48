import { beforeAll, describe, expect, it } from 'vitest';
import { attributePeople, TAG } from '../support/attribute-people.js';
import type { request } from '../support/http.js';
import type { TestApp } from '../support/test-app.js';

/**
 * The users export's attribute columns (issue 38 item 3, SPEC §14): headed by the label, each
 * user's own values in every order, native values in JSON, values written by hand exported as
 * stored. Runs on SQLite, and on MariaDB when TEST_MYSQL_URL is set.
 */

const bed = attributePeople();
const { id } = bed;
let t: TestApp;
let admin: ReturnType<typeof request>;
beforeAll(() => {
  ({ t, admin } = bed);
});

describe('export with attribute columns', () => {
  const url = (format: string) =>
    `/api/users/export?format=${format}&filters[name]=${TAG}&sort=attributes.level&columns[]=name&columns[]=attributes.department&columns[]=attributes.level&columns[]=attributes.remote&columns[]=attributes.manager`;

  it('CSV: headed by the labels, values in the list order, empty cells for no value', async () => {
    const res = await admin.get(url('csv'));
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines).toEqual([
      '"Name","Department","Level","Remote","Manager"',
      `"${TAG} u3","Legal",2,,${id.u1}`,
      `"${TAG} u1","Sales",3,true,`,
      `"${TAG} u5","Sales",3,,`,
      `"${TAG} u2","Support",10,false,`,
      `"${TAG} u4","",,,`,
    ]);
  });

  it('JSON: native values, null for none, filtered like the list', async () => {
    const res = await admin.get(`${url('json')}&filters[attributes][department]=Sales`);
    expect(res.json()).toEqual([
      {
        name: `${TAG} u1`,
        'attributes.department': 'Sales',
        'attributes.level': 3,
        'attributes.remote': true,
        'attributes.manager': null,
      },
      {
        name: `${TAG} u5`,
        'attributes.department': 'Sales',
        'attributes.level': 3,
        'attributes.remote': null,
        'attributes.manager': null,
      },
    ]);
  });

  // A batch's values are read apart from its rows, one text per attribute in id order: whatever
  // the rows' order, each user must get their own values and no one else's.
  it.each([
    ['newest first (the default)', '', ['u5', 'u4', 'u3', 'u2', 'u1']],
    ['oldest first', '&sort=id&dir=asc', ['u1', 'u2', 'u3', 'u4', 'u5']],
    ['by name, descending', '&sort=name&dir=desc', ['u5', 'u4', 'u3', 'u2', 'u1']],
  ])('puts each user’s own values on their row, %s', async (_, order, names) => {
    const res = await admin.get(
      `/api/users/export?format=json&filters[name]=${TAG}${order}&columns[]=name&columns[]=attributes.cost_centre&columns[]=attributes.level&columns[]=attributes.manager`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const values: Record<string, [string | null, number | null, number | null]> = {
      u1: ['CC-100', 3, null],
      u2: ['cc-200', 10, null],
      u3: [null, 2, id.u1],
      u4: [null, null, null],
      u5: ['XX-100', 3, null],
    };
    expect(res.json()).toEqual(
      names.map((name) => ({
        name: `${TAG} ${name}`,
        'attributes.cost_centre': values[name]?.[0],
        'attributes.level': values[name]?.[1],
        'attributes.manager': values[name]?.[2],
      })),
    );
  });

  it('XLSX: a file', async () => {
    const res = await admin.get(url('xlsx'));
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  // The export reads a batch's values of an attribute as one text split on a control character
  // no door lets into a value; values written by hand that the text cannot carry exactly are read
  // again row by row.
  it('exports values written by hand exactly as stored: a separator inside, a number kept as text, a text kept as a number', async () => {
    const attributeId = async (key: string) =>
      Number(
        (
          (
            await t.db.sequelize.query('SELECT id FROM attributes WHERE `key` = :key', { replacements: { key } })
          )[0] as Array<{ id: number }>
        )[0]?.id,
      );
    const write = (key: string, text: string | null, number: number | null = null) =>
      attributeId(key).then((attribute) =>
        t.db.sequelize.query(
          'INSERT INTO user_attribute_values (attribute_id, user_id, text_value, number_value) VALUES (:attribute, :user, :text, :number)',
          { replacements: { attribute, user: id.u4, text, number } },
        ),
      );
    await write('department', 'Le\u001egal:9');
    await write('level', '7x');
    // A text attribute's value in the number column, as a retyping job leaves it half way.
    await write('cost_centre', null, 4711);
    try {
      const res = await admin.get(
        `${url('json').replace('&sort=attributes.level', '')}&columns[]=attributes.cost_centre`,
      );
      expect(res.json().filter((row: { name: string }) => row.name === `${TAG} u4`)).toEqual([
        {
          name: `${TAG} u4`,
          'attributes.department': 'Le\u001egal:9',
          'attributes.level': '7x',
          'attributes.remote': null,
          'attributes.manager': null,
          'attributes.cost_centre': 4711,
        },
      ]);
    } finally {
      await t.db.sequelize.query('DELETE FROM user_attribute_values WHERE user_id = :user', {
        replacements: { user: id.u4 },
      });
    }
  });

  it('an unknown attribute column is refused as an unknown column', async () => {
    const res = await admin.get('/api/users/export?columns[]=attributes.nope');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ columns: ['There is no attribute "nope" to export.'] });
  });
});
