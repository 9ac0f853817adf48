import { describe, expect, it } from 'vitest';
import { shapeRows } from '../../src/imports/reading/rows.js';
import { SharedStrings } from '../../src/imports/reading/xlsx-shared-strings.js';
import { inlineCell, sharedStringsBomb, sheetXml, workbook, workbookParts, zipOf } from '../support/hostile-imports.js';
import { expectRefused, failure, LIMITS, readAll, scratch } from './import-support.js';

const file = scratch();
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const HEADER = `<row r="1">${inlineCell('A1', 'email')}</row>`;

describe('a text longer than Excel allows in a cell', () => {
  it('is refused while the parser is still inside it, never built whole', async () => {
    // 600 000 characters and no end: the part stops mid-text. Read to its end, this is a damaged
    // file; refused at the limit, it is a shared string too long, and only ~200 000 were read.
    const shared = `<sst xmlns="${MAIN}"><si><t>${'x'.repeat(600_000)}`;
    const book = await workbook(sheetXml(`${HEADER}<row r="2"><c r="A2" t="s"><v>0</v></c></row>`), { shared });
    const error = await expectRefused(file('endless-shared.xlsx', book), 'CELL_TOO_LONG');
    expect(error.message).toBe("Shared string 1 is longer than 32,767 characters, Excel's limit for a cell.");
    const cell = `<worksheet xmlns="${MAIN}"><sheetData>${HEADER}<row r="2"><c r="B2"><v>${'7'.repeat(600_000)}`;
    const endless = await expectRefused(file('endless-cell.xlsx', await workbook(cell)), 'CELL_TOO_LONG');
    expect(endless.message).toBe("Cell B2 is longer than 32,767 characters, Excel's limit for a cell.");
    expect(endless.line).toBe(2);
  });

  it('counts the text, not its XML: 32 767 characters written as entities are read', async () => {
    const shared = `<sst xmlns="${MAIN}"><si><t>${'&amp;'.repeat(32_767)}</t></si></sst>`;
    const book = await workbook(sheetXml(`${HEADER}<row r="2"><c r="A2" t="s"><v>0</v></c></row>`), { shared });
    const { rows } = await readAll(file('entities.xlsx', book));
    expect(rows[0]?.values[0]).toBe('&'.repeat(32_767));
    const runs = `<sst xmlns="${MAIN}"><si><r><t>${'a'.repeat(20_000)}</t></r><r><t>${'b'.repeat(20_000)}</t></r></si></sst>`;
    const rich = await workbook(sheetXml(`${HEADER}<row r="2"><c r="A2" t="s"><v>0</v></c></row>`), { shared: runs });
    // Rich text runs count together: 40 000 characters in one cell.
    await expectRefused(file('runs.xlsx', rich), 'CELL_TOO_LONG');
  });
});

describe('the shared strings table', () => {
  const bombOf = async (name: string, count: number, declared = false) =>
    file(name, await zipOf(sharedStringsBomb(count, { declared })));

  it('is refused past its count as it is read, or at once when its writer declares too many', async () => {
    const limits = { ...LIMITS, maxSharedStrings: 1_000 };
    const counted = await expectRefused(await bombOf('counted.xlsx', 5_000), 'TOO_MANY_SHARED_STRINGS', { limits });
    expect(counted.message).toBe(
      'The workbook holds more than 1,000 shared texts, more than a sheet of 10,000 rows can use; split it into smaller files.',
    );
    await expectRefused(await bombOf('declared.xlsx', 1_001, true), 'TOO_MANY_SHARED_STRINGS', { limits });
    expect((await readAll(await bombOf('enough.xlsx', 1_000, true), { limits })).rows).toHaveLength(1);
  });

  it('has a count limit of 8 a row allowed, never under 65 536', async () => {
    const path = await bombOf('floor.xlsx', 65_537);
    const error = await expectRefused(path, 'TOO_MANY_SHARED_STRINGS', { limits: { ...LIMITS, maxRows: 10 } });
    expect(error.message).toMatch(/more than 65,536 shared texts/);
    const rows = { ...LIMITS, maxRows: 9_000 };
    expect((await readAll(path, { limits: rows })).rows).toHaveLength(1);
    const more = await failure(await bombOf('per-row.xlsx', 72_009), { limits: rows });
    expect(more.message).toMatch(/more than 72,008 shared texts, more than a sheet of 9,000 rows/);
  });

  it('is refused past its bytes', async () => {
    // 40 texts of 30 000 letters that do not repeat (deflate would otherwise pack them past the
    // ratio check): 1.2 MB against a limit of 1 MB.
    let seed = 7;
    const letters = () =>
      Array.from({ length: 30_000 }, () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return String.fromCharCode(97 + (seed % 26));
      }).join('');
    const shared = `<sst xmlns="${MAIN}">${Array.from({ length: 40 }, () => `<si><t>${letters()}</t></si>`).join('')}</sst>`;
    const book = await workbook(sheetXml(`${HEADER}<row r="2">${inlineCell('A2', 'a@example.com')}</row>`), { shared });
    const error = await expectRefused(file('bytes.xlsx', book), 'TOO_MANY_SHARED_STRINGS', {
      limits: { ...LIMITS, maxSharedStringBytes: 1024 * 1024 },
    });
    expect(error.message).toBe("The workbook's shared texts take more than 1 MB; split it into smaller files.");
  });

  it('gives back every text as written, across its blocks', () => {
    const strings = new SharedStrings(3_000, 16 * 1024 * 1024);
    const texts = Array.from({ length: 3_000 }, (_, i) => (i % 7 === 0 ? '' : `${i}:${'é😀a'.repeat(i % 500)}`));
    for (const text of texts) strings.add(text);
    // Over 1 MiB of UTF-8: some texts straddle two blocks.
    expect(strings.bytes).toBeGreaterThan(3 * 1024 * 1024);
    expect(strings.count).toBe(3_000);
    texts.forEach((text, i) => {
      if (strings.at(i) !== text) expect(strings.at(i), `string ${i}`).toBe(text);
    });
    expect([strings.at(-1), strings.at(3_000), strings.at(1.5)]).toEqual([undefined, undefined, undefined]);
  });
});

describe('XML no spreadsheet writes, refused before it is held', () => {
  it('refuses elements nested deeper than 64 and a tag of a million characters', async () => {
    const deep = sheetXml(`${HEADER}<row r="2"><c r="A2"><v>1</v></c></row>${'<x>'.repeat(100)}${'</x>'.repeat(100)}`);
    const nested = await expectRefused(file('deep.xlsx', await workbook(deep)), 'UNREADABLE');
    expect(nested.message).toBe('The Excel file nests XML elements more than 64 deep; no spreadsheet writes that.');
    const attributes = Array.from({ length: 120_000 }, (_, i) => `a${i}="1"`).join(' ');
    const wide = await workbook(
      sheetXml(`${HEADER}<row r="2" ${attributes}>${inlineCell('A2', 'a@example.com')}</row>`),
    );
    const tag = await expectRefused(file('wide.xlsx', wide), 'UNREADABLE');
    expect(tag.message).toMatch(/more than 1,048,576 characters of XML in one piece/);
  });

  it('refuses more cell formats than Excel allows', async () => {
    const styles = `<styleSheet xmlns="${MAIN}"><cellXfs>${'<xf/>'.repeat(70_000)}</cellXfs></styleSheet>`;
    const book = await zipOf(workbookParts(sheetXml(HEADER), { styles }));
    const error = await expectRefused(file('styles.xlsx', book), 'MALFORMED');
    expect(error.message).toBe('The Excel file lists more than 65,536 cell formats; no spreadsheet writes that.');
  });
});

describe('line numbers', () => {
  it('are refused past a 32-bit INT, which the staging tables number lines with, whatever the format', async () => {
    const rows = (async function* () {
      yield [{ line: 2_147_483_647, values: ['a@example.com'] }];
      yield [{ line: 2_147_483_648, values: ['b@example.com'] }];
    })();
    const read: number[] = [];
    await expect(
      (async () => {
        for await (const row of shapeRows(rows, 1, LIMITS)) read.push(row.line);
      })(),
    ).rejects.toThrow(
      'The file goes on past line 2,147,483,647, the last line an import can number; split it into smaller files.',
    );
    expect(read).toEqual([2_147_483_647]);
  });
});
