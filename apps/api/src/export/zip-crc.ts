import { createRequire } from 'node:module';
import zlib from 'node:zlib';

/** The part of buffer-crc32 that yazl calls: the CRC-32 of a chunk, continued from the last one's. */
interface Crc32Module {
  unsigned: (data: Buffer, previous?: number) => number;
}

/**
 * yazl computes each zip entry's CRC-32 with buffer-crc32, a byte-at-a-time loop in JavaScript on
 * the main thread: 0.74 s of every million-row XLSX (CPU profile), while the deflate beside it runs
 * on the thread pool. Node's `zlib.crc32` (20.15 and later) is zlib's own: 0.05 s against 0.70 s
 * for 300 MB here, with the same result for the same bytes and running value (yauzl, the import's
 * zip reader, already uses it where it exists). yazl calls `unsigned` on the module object it
 * required, so pointing that one function of yazl's own copy at zlib's makes every zip this
 * process writes use it. Both packages are pinned; `test/unit/zip-crc.test.ts` checks the CRCs a
 * written workbook carries against another implementation (the crc-32 package), so a yazl that
 * stopped calling it this way would fail there, not in a spreadsheet program.
 */
export function useZlibCrc32ForZips(): void {
  const native = (zlib as { crc32?: (data: Buffer, value?: number) => number }).crc32;
  if (!native) return; // an older Node: yazl keeps its own loop
  const fromYazl = createRequire(createRequire(import.meta.url).resolve('yazl'));
  const crc32 = fromYazl('buffer-crc32') as Crc32Module;
  crc32.unsigned = (data, previous = 0) => native(data, previous);
}
