import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GivenUser, given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BOM = '\uFEFF';

/** A fresh caller per test: the export rate limit counts per user. */
async function exporter(spec: { roles?: string[]; permissions?: string[] } = { roles: ['manager'] }) {
  const g = given(t.db);
  const user = await g.user({ ...spec, name: 'Zz Exporter' });
  return { id: user.id, http: request(t.app, { token: await g.token(user.id) }) };
}

const csvLines = (body: string) => body.replace(BOM, '').split('\r\n');
/** The "Users" sheet of a downloaded workbook, read back with exceljs. */
async function usersSheet(payload: Buffer): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(payload as unknown as ArrayBuffer);
  const sheet = book.getWorksheet('Users');
  if (!sheet) throw new Error('the workbook has no "Users" sheet');
  return sheet;
}

describe('GET /api/users/export', () => {
  it('downloads CSV: BOM, quoted header labels and text, CRLF, true/false, ISO timestamps', async () => {
    const g = given(t.db);
    const quoted = await g.user({ name: 'csvmark Smith, "Jo"', roles: ['viewer'] });
    const plain = await g.user({ name: 'csvmark Plain', active: false });
    const { http } = await exporter();
    const res = await http.get('/api/users/export?format=csv&q=csvmark&sort=name&dir=asc');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const [, stamp] =
      String(res.headers['content-disposition']).match(/^attachment; filename="users-(\d{8}-\d{6})\.csv"$/) ?? [];
    expect(stamp).toBeDefined();
    const [, y, mo, d, h, mi, s] = (stamp as string).match(/(\d{4})(\d\d)(\d\d)-(\d\d)(\d\d)(\d\d)/)?.map(Number) ?? [];
    const stampMs = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
    expect(Math.abs(Date.now() - stampMs)).toBeLessThan(60_000);
    expect(res.body.startsWith(BOM)).toBe(true);
    expect(res.body.endsWith('\r\n')).toBe(true);
    const lines = csvLines(res.body);
    expect(lines[0]).toBe('"ID","Name","E-mail","Role count","Roles","Active","Created"');
    expect(lines[1]).toMatch(
      new RegExp(`^${plain.id},"csvmark Plain","${plain.email}",0,"",false,\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`),
    );
    expect(lines[2]).toMatch(new RegExp(`^${quoted.id},"csvmark Smith, ""Jo""","${quoted.email}",1,"viewer",true,`));
    expect(lines.slice(3)).toEqual(['']);
  });

  it('downloads JSON: an array of objects keyed by field name, with native types', async () => {
    const g = given(t.db);
    const ann = await g.user({ name: 'jsonmark Ann', roles: ['viewer', 'manager'] });
    const { http } = await exporter();
    const res = await http.get('/api/users/export?format=json&q=jsonmark');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="users-\d{8}-\d{6}\.json"$/);
    const [row] = res.json();
    expect(row).toEqual({
      id: ann.id,
      name: 'jsonmark Ann',
      email: ann.email,
      roles_count: 2,
      roles: ['manager', 'viewer'],
      is_active: true,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('downloads XLSX: one "Users" sheet, typed cells, a bold and frozen header', async () => {
    const g = given(t.db);
    const bea = await g.user({ name: 'xlsxmark Bea', roles: ['viewer'], active: false });
    const { http } = await exporter();
    const res = await http.get('/api/users/export?format=xlsx&q=xlsxmark');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="users-\d{8}-\d{6}\.xlsx"$/);
    const sheet = await usersSheet(res.rawPayload);
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      'ID',
      'Name',
      'E-mail',
      'Role count',
      'Roles',
      'Active',
      'Created',
    ]);
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe(bea.id);
    expect(row.getCell(2).value).toBe('xlsxmark Bea');
    expect(row.getCell(4).value).toBe(1);
    expect(row.getCell(5).value).toBe('viewer');
    expect(row.getCell(6).value).toBe(false);
    const created = row.getCell(7);
    expect(created.value).toBeInstanceOf(Date);
    expect(created.numFmt).toMatch(/yyyy-mm-dd hh:mm/);
    const stored = await t.db.models.User.findByPk(bea.id);
    expect((created.value as Date).getTime()).toBe(stored?.created_at.getTime());
  });

  it('keeps XLSX text as typed: outer spaces, line breaks, markup characters; drops what XML cannot hold', async () => {
    const name = ' xlsxtext <b>&"Jo"\r\nline\u0007 ';
    const user = await given(t.db).user({ name });
    const { http } = await exporter();
    const res = await http.get(`/api/users/export?format=xlsx&ids[]=${user.id}&columns[]=id&columns[]=name`);
    expect(res.statusCode).toBe(200);
    const sheet = await usersSheet(res.rawPayload);
    expect(sheet.getCell('A2').value).toBe(user.id);
    expect(sheet.getCell('B2').value).toBe(' xlsxtext <b>&"Jo"\r\nline ');
  });

  it('is a valid file when nothing matches: CSV header only, JSON [], XLSX header row only', async () => {
    const { http } = await exporter();
    const none = 'q=no-such-user-anywhere';
    const csv = await http.get(`/api/users/export?format=csv&${none}`);
    expect(csv.body).toBe(`${BOM}"ID","Name","E-mail","Role count","Roles","Active","Created"\r\n`);
    const json = await http.get(`/api/users/export?format=json&${none}`);
    expect(json.json()).toEqual([]);
    const book = await http.get(`/api/users/export?format=xlsx&${none}`);
    expect((await usersSheet(book.rawPayload)).rowCount).toBe(1);
  });

  it('neutralises formulas in CSV and XLSX text cells, and leaves JSON as stored', async () => {
    const name = '=HYPERLINK("http://evil.example","click")';
    const user = await given(t.db).user({ name });
    const { http } = await exporter();
    const query = `ids[]=${user.id}&columns[]=name`;
    const csv = await http.get(`/api/users/export?format=csv&${query}`);
    expect(csvLines(csv.body)[1]).toBe(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    const sheet = await usersSheet((await http.get(`/api/users/export?format=xlsx&${query}`)).rawPayload);
    expect(sheet.getCell('A2').value).toBe(`'${name}`);
    expect((await http.get(`/api/users/export?format=json&${query}`)).json()).toEqual([{ name }]);
  });

  it('quotes every text cell, so no list separator a spreadsheet may use starts a formula', async () => {
    const g = given(t.db);
    const people = [
      { name: 'a;=1+1;b' },
      { name: 'x\t=1' },
      { name: '=cmd' },
      { name: '@SUM(1)', email: `-2+3@formula${process.pid}.example` },
      { name: 'Line\n+break, c,-d' },
    ];
    const users = [];
    for (const person of people) users.push(await g.user(person));
    const { http } = await exporter();
    // The default columns: the name is the second field, where a quote does not open the cell
    // for a spreadsheet that splits the line on `;` or tab.
    const ids = users.map((user) => `ids[]=${user.id}`).join('&');
    const res = await http.get(`/api/users/export?format=csv&sort=id&dir=asc&${ids}`);
    expect(res.statusCode).toBe(200);
    const [a, x, cmd, sum, line] = users as [GivenUser, GivenUser, GivenUser, GivenUser, GivenUser];
    const records: string[][] = parse(res.body, { bom: true });
    expect(records.slice(1).map((r) => [r[0], r[1], r[2]])).toEqual([
      [String(a.id), "a;'=1+1;b", a.email],
      [String(x.id), "x\t'=1", x.email],
      [String(cmd.id), "'=cmd", cmd.email],
      [String(sum.id), "'@SUM(1)", `'${sum.email}`],
      [String(line.id), "Line\n'+break, c,'-d", line.email],
    ]);
    // Every text cell is quoted in the raw bytes.
    expect(res.body).toContain(`${a.id},"a;'=1+1;b","${a.email}",0,"",true,`);
    for (const delimiter of [',', ';', '\t']) {
      // Read as a spreadsheet set to another separator would: leniently, not as RFC 4180 says.
      const fields: string[] = parse(res.body, {
        bom: true,
        delimiter,
        relax_quotes: true,
        relax_column_count: true,
      }).flat();
      expect(
        fields.filter((field) => /^[=+\-@\t\r]/.test(field)),
        `split on ${JSON.stringify(delimiter)}`,
      ).toEqual([]);
    }
    // XLSX and JSON carry the names as stored (XLSX neutralises only a leading formula character).
    const json = (await http.get(`/api/users/export?format=json&sort=id&dir=asc&${ids}`)).json();
    expect(json.map((r: { name: string }) => r.name)).toEqual(people.map((p) => p.name));
  });

  it('picks and orders columns as asked', async () => {
    const user = await given(t.db).user({ name: 'colmark Cy' });
    const { http } = await exporter();
    const query = 'q=colmark&columns[]=email&columns[]=is_active&columns[]=id';
    const csv = await http.get(`/api/users/export?${query}`);
    expect(csvLines(csv.body).slice(0, 2)).toEqual(['"E-mail","Active","ID"', `"${user.email}",true,${user.id}`]);
    const [row] = (await http.get(`/api/users/export?format=json&${query}`)).json();
    expect(Object.keys(row)).toEqual(['email', 'is_active', 'id']);
  });

  it('narrows to ids[] within the query, in the list order', async () => {
    const g = given(t.db);
    const a = await g.user({ name: 'idsmark A' });
    await g.user({ name: 'idsmark B' });
    const c = await g.user({ name: 'idsmark C' });
    const { http } = await exporter();
    const query = `q=idsmark&sort=name&dir=desc&ids[]=${a.id}&ids[]=${c.id}&ids[]=999999`;
    const res = await http.get(`/api/users/export?format=json&${query}`);
    expect(res.json().map((r: { id: number }) => r.id)).toEqual([c.id, a.id]);
  });
});
