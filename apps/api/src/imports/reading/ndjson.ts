import type { Readable } from 'node:stream';
import { ImportFileError } from './errors.js';
import { type JsonItem, itemOf } from './json-values.js';

/** Lines of UTF-8 bytes with their numbers, each at most `maxBytes` long (a hostile line is refused, not buffered). */
async function* linesOf(source: Readable, maxBytes: number): AsyncGenerator<{ line: number; text: string }> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 1;
  const tooLong = () =>
    new ImportFileError(
      'LINE_TOO_LONG',
      `Line ${line} is longer than ${maxBytes.toLocaleString('en-US')} bytes.`,
      line,
    );
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      let start = 0;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, start)) {
        const piece = chunk.subarray(start, at);
        if (pendingBytes + piece.length > maxBytes) throw tooLong();
        const text = pending.length ? Buffer.concat([...pending, piece]).toString('utf8') : piece.toString('utf8');
        pending = [];
        pendingBytes = 0;
        yield { line, text };
        line++;
        start = at + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > maxBytes) throw tooLong();
      }
    }
    if (pendingBytes > 0) yield { line, text: Buffer.concat(pending).toString('utf8') };
  } finally {
    source.destroy();
  }
}

/**
 * NDJSON items, one per non-blank line; a line that is not JSON is that row's problem alone,
 * except the first: then the file is not NDJSON at all (a pretty-printed object, say).
 */
export async function* ndjsonItems(source: Readable, maxLineBytes: number): AsyncGenerator<JsonItem> {
  let first = true;
  for await (const { line, text } of linesOf(source, maxLineBytes)) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (first) {
        throw new ImportFileError(
          'MALFORMED',
          'The file is neither a JSON array of objects nor one JSON object per line.',
          line,
        );
      }
      yield { line, problem: { code: 'BAD_JSON', message: `Line ${line} is not valid JSON.` } };
      continue;
    } finally {
      first = false;
    }
    yield itemOf(line, value);
  }
}
