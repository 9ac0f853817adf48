import { buffer } from 'node:stream/consumers';
import CRC32 from 'crc-32';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import type { ExportColumn } from '../../src/export/columns.js';
import { xlsxBody } from '../../src/export/xlsx.js';

interface Row {
  id: number;
  name: string;
}

const COLUMNS: ExportColumn<Row>[] = [
  { key: 'id', label: 'ID', type: 'number' },
  { key: 'name', label: 'Name', type: 'string' },
];

async function* batches() {
  for (let b = 0; b < 3; b++) {
    yield Array.from({ length: 2000 }, (_, i) => ({ id: b * 2000 + i, name: `Zoë Łukasz 李 ${b * 2000 + i}` }));
  }
}

/** Every entry of a zip: the CRC-32 its central directory records, and its bytes inflated. */
async function entriesOf(zip: Buffer): Promise<Array<{ name: string; recorded: number; data: Buffer }>> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const found: Array<{ name: string; recorded: number; data: Buffer }> = [];
  for await (const entry of file.eachEntry()) {
    const data = await buffer(await file.openReadStreamPromise(entry));
    found.push({ name: entry.fileName, recorded: entry.crc32, data });
  }
  return found;
}

describe("a workbook's zip", () => {
  // The export points yazl's CRC-32 at zlib's (src/export/zip-crc.ts); a spreadsheet program
  // refuses a file whose recorded CRCs do not match its bytes. Checked here with another library.
  it('records for every part the CRC-32 of its bytes, as an independent implementation computes it', async () => {
    const entries = await entriesOf(await buffer(xlsxBody(batches(), COLUMNS, 'Users')));
    expect(entries.map((e) => e.name)).toContain('xl/worksheets/sheet1.xml');
    const sheet = entries.find((e) => e.name === 'xl/worksheets/sheet1.xml');
    // Past several of the writer's pieces, so the running value is carried from chunk to chunk.
    expect(sheet?.data.length).toBeGreaterThan(300_000);
    for (const entry of entries) expect(entry.recorded, entry.name).toBe(CRC32.buf(entry.data) >>> 0);
  });
});
