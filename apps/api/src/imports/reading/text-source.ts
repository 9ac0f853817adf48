import { createReadStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import iconv from 'iconv-lite';
import type { ImportEncoding } from './types.js';

/**
 * The file's text as UTF-8 bytes, BOM skipped: UTF-8 files pass through untouched (the fast
 * path for large files); other encodings are decoded by iconv-lite and re-encoded, so every
 * parser downstream sees one encoding.
 */
export function utf8Source(path: string, encoding: ImportEncoding, skip: number): Readable {
  const file = createReadStream(path, { start: skip, highWaterMark: 256 * 1024 });
  if (encoding === 'utf-8') return file;
  const decoder = iconv.getDecoder(encoding, { stripBOM: false });
  const reencode = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = decoder.write(chunk);
      done(null, text.length > 0 ? Buffer.from(text, 'utf8') : undefined);
    },
    flush(done) {
      const rest = decoder.end();
      done(null, rest ? Buffer.from(rest, 'utf8') : undefined);
    },
  });
  file.on('error', (error) => reencode.destroy(error));
  return file.pipe(reencode);
}

/** The first bytes of the file decoded, for sniffing the CSV delimiter. */
export function decodeHead(head: Buffer, encoding: ImportEncoding, skip: number): string {
  return iconv.decode(head.subarray(skip), encoding, { stripBOM: false });
}
