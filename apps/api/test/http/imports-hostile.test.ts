import { Writable } from 'node:stream';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { given } from '../support/given.js';
import {
  cellPastExcel,
  longInlineString,
  longSharedString,
  MULTIPART_WITHOUT_BOUNDARY,
  rowPastExcel,
  rowsNumbered,
  sharedStringsBomb,
  XLSX_TYPE,
  zipOf,
} from '../support/hostile-imports.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * What an independent probe sent to POST /users/imports and got a 500 for (or a different answer
 * per database engine): each must be a 4xx problem+json that names what is wrong, the same on
 * SQLite and MariaDB, with nothing staged and no error with a stack in the log.
 */

let t: TestApp;
let token = '';
const logLines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  // 1 000 rows: the shared strings' count limit is then its floor, 65 536.
  t = await startTestApp({ IMPORT_MAX_ROWS: '1000' }, createLogger('debug', sink));
  token = await given(t.db).token((await given(t.db).user({ roles: ['admin'] })).id);
});
afterAll(() => t.close());

const upload = (body: string | Buffer, type: string, query = 'dryRun=true') =>
  t.app.inject({
    method: 'POST',
    url: `/api/users/imports?${query}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    payload: body,
  });

async function stagedUploads(): Promise<number> {
  const [row] = await t.db.sequelize.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM import_uploads', {
    type: QueryTypes.SELECT,
  });
  return Number(row?.n);
}

/** Log lines at error level or above, or carrying a stack: what an operator's alerting pages on. */
const alarming = () => logLines.filter((line) => /"level":(5\d|60)/.test(line) || /"stack"/.test(line));

async function expectRefused(res: Awaited<ReturnType<typeof upload>>, status: number, detail: string | RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json().detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
}

describe('POST /users/imports: a multipart body without a boundary', () => {
  it('is a 400 problem+json that says what is missing, and logs no error', async () => {
    const before = alarming().length;
    for (const type of [
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; charset=utf-8',
    ]) {
      const res = await upload(MULTIPART_WITHOUT_BOUNDARY.body, type);
      await expectRefused(res, 400, /names no boundary/);
      expect(res.json().code, type).toBe('BAD_REQUEST');
    }
    // A body cut short is unreadable in the same way: 400, as unreadable JSON is.
    const cut = MULTIPART_WITHOUT_BOUNDARY.body.slice(0, 60);
    await expectRefused(await upload(cut, 'multipart/form-data; boundary=x'), 400, /could not be read/);
    expect(alarming().slice(before)).toEqual([]);
  });
});

describe('POST /users/imports: a text longer than Excel allows in a cell', () => {
  it('refuses a shared string past 32,767 characters with 422 naming it, and stages nothing', async () => {
    const before = await stagedUploads();
    await expectRefused(
      await upload(await longSharedString(32_768), XLSX_TYPE),
      422,
      "Shared string 1 is longer than 32,767 characters, Excel's limit for a cell.",
    );
    expect(await stagedUploads()).toBe(before);
  });

  it('refuses an inline string past it too, naming the cell', async () => {
    await expectRefused(
      await upload(await longInlineString(32_768), XLSX_TYPE),
      422,
      "Cell A2 is longer than 32,767 characters, Excel's limit for a cell.",
    );
  });

  it('takes a text of exactly 32,767 characters', async () => {
    expect((await upload(await longSharedString(32_767), XLSX_TYPE)).statusCode).toBe(202);
    expect((await upload(await longInlineString(32_767), XLSX_TYPE)).statusCode).toBe(202);
  });
});

describe('POST /users/imports: row numbers no spreadsheet writes', () => {
  it('refuses a row past Excel’s last row with the same 422 on every engine, staging nothing', async () => {
    const before = await stagedUploads();
    await expectRefused(
      await upload(await rowPastExcel(), XLSX_TYPE, ''),
      422,
      "Row 99,999,999,999 is past Excel's last row, 1,048,576.",
    );
    await expectRefused(
      await upload(await cellPastExcel(), XLSX_TYPE, ''),
      422,
      "Cell A99999999999 is past Excel's last row, 1,048,576.",
    );
    await expectRefused(await upload(await rowPastExcel('1048577'), XLSX_TYPE, ''), 422, /Row 1,048,577 is past/);
    expect(await stagedUploads()).toBe(before);
  });

  it('refuses rows out of order, twice or not numbered with a row number, which were 500s', async () => {
    const before = await stagedUploads();
    await expectRefused(
      await upload(await rowsNumbered('3', '2'), XLSX_TYPE, ''),
      422,
      'Row 2 comes after row 3; the rows of a sheet are in order in every file a spreadsheet writes.',
    );
    // The same line twice broke the staging table's key; an `r` that is no number, its line column.
    await expectRefused(
      await upload(await rowsNumbered('2', '2'), XLSX_TYPE, ''),
      422,
      'Row 2 appears twice in the sheet.',
    );
    await expectRefused(
      await upload(await rowsNumbered('2', null, '3'), XLSX_TYPE, ''),
      422,
      'Row 3 appears twice in the sheet.',
    );
    for (const r of ['x', '0', '-5', '1.5', '1e3']) {
      await expectRefused(
        await upload(await rowsNumbered(r), XLSX_TYPE, ''),
        422,
        'A row of the sheet is not numbered with a whole number from 1 to 1,048,576.',
      );
    }
    expect(await stagedUploads()).toBe(before);
    // Rows without a number follow the one before them, as Excel reads them.
    expect((await upload(await rowsNumbered(null, '5', null), XLSX_TYPE)).statusCode).toBe(202);
  });

  it('takes a row on Excel’s last row, 1,048,576', async () => {
    expect((await upload(await rowPastExcel('1048576'), XLSX_TYPE)).statusCode).toBe(202);
  });
});

describe('POST /users/imports: a shared strings table past its limits', () => {
  it('refuses more shared strings than the rows allow with 422, counted as they come', async () => {
    const before = await stagedUploads();
    // 100 000 strings, over the floor of 65 536; without the counts a writer declares.
    const bomb = await zipOf(sharedStringsBomb(100_000));
    await expectRefused(
      await upload(bomb, XLSX_TYPE),
      422,
      'The workbook holds more than 65,536 shared texts, more than a sheet of 1,000 rows can use; split it into smaller files.',
    );
    // A writer's own count is believed when it is too many: refused before one string is read.
    const declared = await zipOf(sharedStringsBomb(100_000, { declared: true }));
    await expectRefused(await upload(declared, XLSX_TYPE), 422, /more than 65,536 shared texts/);
    expect(await stagedUploads()).toBe(before);
  });
});
