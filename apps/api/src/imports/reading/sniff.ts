import { open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { ImportFileError } from './errors.js';
import type { ImportEncoding, ImportFormat } from './types.js';

/** Enough of the file to see its BOM, its first character and a few dozen CSV lines. */
export const HEAD_BYTES = 64 * 1024;

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** The compound-file header of the old binary .xls (and .doc): not a format we read. */
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

const BOMS: readonly { encoding: ImportEncoding; bytes: Buffer }[] = [
  { encoding: 'utf-8', bytes: Buffer.from([0xef, 0xbb, 0xbf]) },
  { encoding: 'utf-16le', bytes: Buffer.from([0xff, 0xfe]) },
  { encoding: 'utf-16be', bytes: Buffer.from([0xfe, 0xff]) },
];

export async function readHead(path: string): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    throw new ImportFileError('UNREADABLE', 'The uploaded file could not be read.');
  } finally {
    await handle?.close();
  }
}

export function bomOf(head: Buffer): { encoding: ImportEncoding; length: number } | null {
  const bom = BOMS.find((b) => head.subarray(0, b.bytes.length).equals(b.bytes));
  return bom ? { encoding: bom.encoding, length: bom.bytes.length } : null;
}

export function isZip(head: Buffer): boolean {
  return head.subarray(0, 4).equals(ZIP_MAGIC);
}

/** The format from the first bytes: a zip is XLSX, `[` a JSON array, `{` NDJSON, anything else CSV. */
export function sniffFormat(head: Buffer): ImportFormat {
  if (isZip(head)) return 'xlsx';
  if (head.subarray(0, OLE_MAGIC.length).equals(OLE_MAGIC)) {
    throw new ImportFileError(
      'UNSUPPORTED_FORMAT',
      'Old Excel .xls files are not supported; save the sheet as .xlsx or CSV and upload it again.',
    );
  }
  const bom = bomOf(head);
  const encoding = bom?.encoding === 'utf-16le' ? 'utf16le' : 'latin1';
  let text = head.subarray(bom?.length ?? 0).toString(encoding);
  if (bom?.encoding === 'utf-16be') text = Buffer.from(head.subarray(2)).swap16().toString('utf16le');
  const first = text.trimStart()[0];
  if (first === '[') return 'json';
  if (first === '{') return 'ndjson';
  return 'csv';
}

/** Whether the whole file is valid UTF-8, read as a stream (the first bytes prove nothing). */
export async function isUtf8File(path: string, skip: number): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(path, { start: skip })) {
      decoder.decode(chunk as Buffer, { stream: true });
    }
    decoder.decode();
    return true;
  } catch (error) {
    if (error instanceof TypeError) return false;
    throw new ImportFileError('UNREADABLE', 'The uploaded file could not be read.');
  }
}

/**
 * The text encoding and how many BOM bytes to skip. A BOM wins over everything, being
 * unambiguous; then the caller's `encoding`; then UTF-8 when the whole file is valid UTF-8,
 * else Windows-1252 (what Excel on Windows writes, and a superset of ISO-8859-1's printable part).
 */
export async function detectEncoding(
  path: string,
  head: Buffer,
  given: ImportEncoding | undefined,
): Promise<{ encoding: ImportEncoding; skip: number }> {
  const bom = bomOf(head);
  if (bom) return { encoding: bom.encoding, skip: bom.length };
  if (given === 'utf-16le' || given === 'utf-16be') return { encoding: given, skip: 0 };
  // Text in any 8-bit encoding has no NUL byte; binary files (and BOM-less UTF-16) do.
  if (head.includes(0)) {
    throw new ImportFileError('UNREADABLE', 'The file is not a CSV, Excel or JSON file.');
  }
  if (given && given !== 'utf-8') return { encoding: given, skip: 0 };
  if (await isUtf8File(path, 0)) return { encoding: 'utf-8', skip: 0 };
  if (given === 'utf-8') {
    throw new ImportFileError(
      'BAD_ENCODING',
      'The file is not valid UTF-8 text; save it as UTF-8 or choose its encoding.',
    );
  }
  return { encoding: 'windows-1252', skip: 0 };
}
