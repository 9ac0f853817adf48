import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { openImportFile } from '../../src/imports/reading/index.js';
import { SHEET_PATH, sheetXml as sheet, workbook, zipOf } from '../support/hostile-imports.js';
import { descriptorsOn, expectRefused, fixture, LIMITS, readAll, scratch } from './import-support.js';

const file = scratch();
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** Rewrites the uncompressed size the central directory declares for one entry: a lying zip. */
function declareSize(zip: Buffer, name: string, size: number): Buffer {
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let at = zip.indexOf(signature); at !== -1; at = zip.indexOf(signature, at + 4)) {
    const nameLength = zip.readUInt16LE(at + 28);
    if (zip.subarray(at + 46, at + 46 + nameLength).toString() === name) {
      zip.writeUInt32LE(size, at + 24);
      return zip;
    }
  }
  throw new Error(`no central directory entry for ${name}`);
}

function peopleRows(count: number): string {
  let rows =
    '<row r="1"><c r="A1" t="inlineStr"><is><t>email</t></is></c><c r="B1" t="inlineStr"><is><t>n</t></is></c></row>';
  for (let i = 2; i <= count + 1; i++) {
    rows += `<row r="${i}"><c r="A${i}" t="inlineStr"><is><t>user${i * 7919}@example.com</t></is></c><c r="B${i}"><v>${i * 31}</v></c></row>`;
  }
  return rows;
}

describe('reading XLSX cells as Excel displays them', () => {
  it('reads shared and inline strings, gaps, booleans, errors, formulas and number formats', async () => {
    const styles = `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts>
      <cellStyleXfs count="1"><xf numFmtId="3"/></cellStyleXfs>
      <cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="9"/><xf numFmtId="3"/><xf numFmtId="14"/></cellXfs></styleSheet>`;
    const shared = `<sst xmlns="${MAIN}"><si><t>name</t></si><si><t>email</t></si><si><r><t>Ri</t></r><r><rPr><b/></rPr><t>ch</t></r><rPh><t>リッチ</t></rPh></si></sst>`;
    const rows = `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>joined</t></is></c><c r="D1" t="inlineStr"><is><t>share</t></is></c><c r="E1" t="inlineStr"><is><t>count</t></is></c><c r="F1" t="inlineStr"><is><t>iso</t></is></c></row>
      <row r="3"><c r="A3" t="s"><v>2</v></c><c r="C3" s="1"><v>46352</v></c><c r="D3" s="2"><v>0.25</v></c><c r="E3" s="3"><v>1234567</v></c><c r="F3" s="4"><v>46352.5</v></c></row>
      <row r="4"><c r="A4" t="b"><v>1</v></c><c r="B4" t="e"><v>#N/A</v></c><c r="C4" t="str"><f>CONCAT("a","b")</f><v>ab</v></c><c r="D4"><v>0.30000000000000004</v></c><c r="E4"><v>12345</v></c></row>`;
    const { detected, rows: read } = await readAll(file('cells.xlsx', await workbook(sheet(rows), { styles, shared })));
    expect(detected).toEqual({
      format: 'xlsx',
      encoding: null,
      delimiter: null,
      sheet: 'Data',
      headers: ['name', 'email', 'joined', 'share', 'count', 'iso'],
    });
    expect(read).toEqual([
      { line: 3, values: ['Rich', '', '26/11/2026', '25%', '1,234,567', '2026-11-26'] },
      { line: 4, values: ['TRUE', '#N/A', 'ab', '0.3', '12345', ''] },
    ]);
  });

  it('reads namespace-prefixed parts, cells without references and the 1904 date system', async () => {
    const styles = `<x:styleSheet xmlns:x="${MAIN}"><x:cellXfs count="2"><x:xf numFmtId="0"/><x:xf numFmtId="14"/></x:cellXfs></x:styleSheet>`;
    const xml = `<x:worksheet xmlns:x="${MAIN}"><x:sheetData><x:row><x:c t="inlineStr"><x:is><x:t>email</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>day</x:t></x:is></x:c></x:row><x:row><x:c t="inlineStr"><x:is><x:t> a@example.com </x:t></x:is></x:c><x:c s="1"><x:v>44890</x:v></x:c></x:row></x:sheetData></x:worksheet>`;
    const { rows } = await readAll(file('prefixed.xlsx', await workbook(xml, { styles, date1904: true })));
    // Serial 44 890 is 2026-11-26 in the 1904 system (2022-11-25 in the 1900 one).
    expect(rows).toEqual([{ line: 2, values: ['a@example.com', '2026-11-26'] }]);
  });

  it('starts on the first sheet not hidden, as Excel opens it', async () => {
    const book = new ExcelJS.Workbook();
    const lookup = book.addWorksheet('Lookup');
    lookup.state = 'hidden';
    lookup.addRow(['code']);
    book.addWorksheet('Staff').addRows([['email'], ['a@example.com']]);
    const { detected, rows } = await readAll(file('hidden-first.xlsx', Buffer.from(await book.xlsx.writeBuffer())));
    expect(detected).toMatchObject({ sheet: 'Staff', headers: ['email'] });
    expect(rows).toEqual([{ line: 2, values: ['a@example.com'] }]);
  });

  it('names the sheets there are when asked for one that is not', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Staff').addRow(['email']);
    book.addWorksheet('Contractors').addRow(['email']);
    const path = file('two-sheets.xlsx', Buffer.from(await book.xlsx.writeBuffer()));
    const error = await expectRefused(path, 'NO_SUCH_SHEET', { sheet: 'Interns' });
    expect(error.message).toBe('The workbook has no sheet "Interns"; its sheets are "Staff", "Contractors".');
    expect((await readAll(path, { sheet: 'Contractors' })).detected.sheet).toBe('Contractors');
  });
});

describe('letting go of an XLSX file', () => {
  it('closes the zip when the caller only wanted the header', async () => {
    // This file's own descriptors: counting all of the process's would count the test runner's too.
    const path = fixture('dates-and-numbers.xlsx');
    const openOnIt = () => descriptorsOn(path);
    const { detected, rows } = await openImportFile(path, { limits: LIMITS });
    expect(detected.headers[0]).toBe('Name');
    expect(openOnIt()).toBeGreaterThan(0);
    await rows.return();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openOnIt()).toBe(0);
  });
});

describe('refusing hostile or broken XLSX files', () => {
  it('refuses a part whose declared size passes the limit, before inflating it', async () => {
    const bomb = await workbook(sheet(' '.repeat(20 * 1024 * 1024)));
    expect(bomb.length).toBeLessThan(200 * 1024);
    const error = await expectRefused(file('bomb.xlsx', bomb), 'TOO_LARGE_UNCOMPRESSED', {
      limits: { maxRows: 100, maxUncompressedBytes: 10 * 1024 * 1024 },
    });
    expect(error.message).toBe('The Excel file unpacks to more than 10 MB; split it into smaller files.');
  });

  it('refuses a part compressed past any real ratio even under the size limit', async () => {
    const bomb = await workbook(sheet(' '.repeat(20 * 1024 * 1024)));
    await expectRefused(file('ratio.xlsx', bomb), 'TOO_LARGE_UNCOMPRESSED', {
      limits: { maxRows: 100, maxUncompressedBytes: 1024 * 1024 * 1024 },
    });
  });

  it('counts inflated bytes when the central directory lies about a size', async () => {
    const honest = await workbook(sheet(peopleRows(30_000)));
    const lying = declareSize(Buffer.from(honest), SHEET_PATH, 1000);
    const limits = { maxRows: 100_000, maxUncompressedBytes: 1024 * 1024 };
    expect(
      (await readAll(file('honest.xlsx', honest), { limits: { ...limits, maxUncompressedBytes: 1e8 } })).rows,
    ).toHaveLength(30_000);
    await expectRefused(file('lying.xlsx', lying), 'TOO_LARGE_UNCOMPRESSED', { limits });
    // Under a generous limit, the part inflating past its declared size is refused all the same.
    await expectRefused(file('lying-generous.xlsx', lying), 'TOO_LARGE_UNCOMPRESSED', {
      limits: { ...limits, maxUncompressedBytes: 1e8 },
    });
  });

  it('refuses a zip with more entries than the limit', async () => {
    const path = file('entries.xlsx', await workbook(sheet(peopleRows(1))));
    await expectRefused(path, 'TOO_LARGE_UNCOMPRESSED', {
      limits: { maxRows: 10, maxUncompressedBytes: 1e6, maxEntries: 3 },
    });
  });

  it('refuses more rows than the limit', async () => {
    const path = file('rows.xlsx', await workbook(sheet(peopleRows(11))));
    await expectRefused(path, 'TOO_MANY_ROWS', { limits: { maxRows: 10, maxUncompressedBytes: 1e6 } });
  });

  it('refuses a cell longer than maxCellChars', async () => {
    const rows = `<row r="1"><c t="inlineStr"><is><t>email</t></is></c></row><row r="2"><c t="inlineStr"><is><t>${'x'.repeat(500)}</t></is></c></row>`;
    const error = await expectRefused(file('long.xlsx', await workbook(sheet(rows))), 'CELL_TOO_LONG', {
      limits: { maxRows: 10, maxUncompressedBytes: 1e6, maxCellChars: 100 },
    });
    expect(error.line).toBe(2);
  });

  it('refuses a damaged zip, broken XML and a non-zip sent as XLSX', async () => {
    const zip = await workbook(sheet(peopleRows(5)));
    await expectRefused(file('cut.xlsx', zip.subarray(0, zip.length - 30)), 'UNREADABLE');
    await expectRefused(file('broken-xml.xlsx', await workbook('<worksheet><sheetData><row><c>')), 'UNREADABLE');
    await expectRefused(file('text.xlsx', 'email\na@example.com\n'), 'UNREADABLE', { format: 'xlsx' });
    await expectRefused(file('no-sheets.xlsx', await zipOf({ 'readme.txt': 'hello' })), 'UNREADABLE');
  });
});
