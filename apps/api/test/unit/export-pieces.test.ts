import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { type ExportColumn, PIECE_CHARS } from '../../src/export/columns.js';
import { csvBody } from '../../src/export/csv.js';
import { jsonBody } from '../../src/export/json.js';
import { xlsxBody } from '../../src/export/xlsx.js';

interface Row {
  id: number;
  name: string;
  note: string;
}

const COLUMNS: ExportColumn<Row>[] = [
  { key: 'id', label: 'ID', type: 'number' },
  { key: 'name', label: 'Name', type: 'string' },
  { key: 'note', label: 'Note', type: 'string' },
];

/** Two batches of a thousand rows, each row about 250 characters: ~250 000 characters a batch. */
function rows(): Row[][] {
  const batch = (from: number) =>
    Array.from({ length: 1000 }, (_, i) => ({
      id: from + i,
      // A name outside Latin-1 makes the batch's text two bytes a character.
      name: i % 7 === 0 ? `Zoë Łukasz 李 ${from + i}` : `Ada Lovelace ${from + i}`,
      note: `${'a long note, '.repeat(18)}#${from + i}`,
    }));
  return [batch(1), batch(1001)];
}

async function* batches(all: Row[][]) {
  for (const batch of all) yield batch;
}

async function chunksOf(body: Readable): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of body) out.push(String(chunk));
  return out;
}

describe('the export writers hand text on in pieces', () => {
  // Past 128 KB, the flat copy the socket makes of a chunk is a large object of V8's own, 14
  // times as costly per megabyte: a batch of users with attribute columns crossed it.
  const LARGE_OBJECT_CHARS = 64 * 1024;

  it('writes a CSV batch as chunks under the large-object size, joined to every row in order', async () => {
    const chunks = await chunksOf(csvBody(batches(rows()), COLUMNS));
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(LARGE_OBJECT_CHARS);
    const lines = chunks.join('').split('\r\n');
    expect(lines[0]).toBe('\uFEFF"ID","Name","Note"');
    expect(lines).toHaveLength(2002);
    expect(lines[1]).toBe(`1,"Zoë Łukasz 李 1","${'a long note, '.repeat(18)}#1"`);
    expect(lines[2000]).toMatch(/^2000,"Ada Lovelace 2000",/);
    expect(lines[2001]).toBe('');
  });

  it('writes a JSON batch as chunks under the large-object size that parse to every row', async () => {
    const chunks = await chunksOf(jsonBody(batches(rows()), COLUMNS));
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(LARGE_OBJECT_CHARS);
    const parsed = JSON.parse(chunks.join('')) as Row[];
    expect(parsed).toHaveLength(2000);
    expect(parsed.map((r) => r.id)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
  });

  it('writes a workbook whose sheet holds every row, whatever the pieces', async () => {
    const zipped = Buffer.concat(
      (await chunksOf(xlsxBody(batches(rows()), COLUMNS, 'Users').setEncoding('latin1'))).map((c) =>
        Buffer.from(c, 'latin1'),
      ),
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(zipped as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Users');
    expect(sheet?.rowCount).toBe(2001);
    expect(sheet?.getRow(2).values).toEqual([undefined, 1, 'Zoë Łukasz 李 1', `${'a long note, '.repeat(18)}#1`]);
    expect(sheet?.getRow(2001).getCell(2).value).toBe('Ada Lovelace 2000');
  });

  it('keeps each piece near PIECE_CHARS, not a row at a time', () => {
    // Pieces too small would cost a socket write per row; too large, the cliff above.
    expect(PIECE_CHARS).toBeGreaterThanOrEqual(16 * 1024);
    expect(2 * PIECE_CHARS).toBeLessThan(128 * 1024);
  });
});
