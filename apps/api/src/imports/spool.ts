import { createHash, type Hash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { IMPORT_MEDIA_TYPES, type ImportFormat } from '@app/contracts';
import Busboy from '@fastify/busboy';
import type { UploadBody } from '../context.js';

/** The upload, written to a local file while it arrived: read from there, then removed. */
export interface SpooledFile {
  path: string;
  bytes: number;
  name: string | null;
  /** The format its media type names; null for a type that names none (sniffed by the reader). */
  format: ImportFormat | null;
  /** SHA-256 of the file's bytes (hex): what an `Idempotency-Key` is held to. */
  sha256: string;
  remove(): Promise<void>;
}

/** Why an upload was refused before it was read: each a sentence for the person who sent it. */
export class UploadRefused extends Error {
  constructor(
    readonly reason: 'too-large' | 'media-type' | 'no-file' | 'empty' | 'malformed',
    message: string,
  ) {
    super(message);
    this.name = 'UploadRefused';
  }
}

const MB = 1024 * 1024;
const GENERIC_TYPES = new Set(['application/octet-stream', 'text/plain']);

export const tooLarge = (maxBytes: number) =>
  new UploadRefused('too-large', `The file is larger than the limit of ${Math.round(maxBytes / MB)} MB.`);

/** `text/csv; charset=utf-8` → `text/csv`. */
const mediaType = (contentType: string | null) => (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

function formatOf(type: string): ImportFormat | null | undefined {
  if (type in IMPORT_MEDIA_TYPES) return IMPORT_MEDIA_TYPES[type];
  return GENERIC_TYPES.has(type) || type === '' ? null : undefined;
}

const NO_BOUNDARY =
  'The multipart/form-data body names no boundary (Content-Type: multipart/form-data; boundary=…), so its parts cannot be found; let the browser or HTTP library write that header.';

const ACCEPTED = `Send a CSV, XLSX, JSON or NDJSON file as the body (${Object.keys(IMPORT_MEDIA_TYPES).join(', ')}), or as the field "file" of multipart/form-data.`;

/**
 * Counts the bytes going through; past `maxBytes` it writes nothing more and lets the rest of
 * the body go by unread. Failing the stream instead would tear down the request, and the
 * client would see a reset connection rather than the 413 that names the limit.
 */
function byteLimit(maxBytes: number, counted: { bytes: number; hash: Hash }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      counted.bytes += chunk.length;
      if (counted.bytes > maxBytes) return done();
      counted.hash.update(chunk);
      done(null, chunk);
    },
  });
}

async function writeLimited(
  source: Readable,
  file: string,
  maxBytes: number,
): Promise<{ bytes: number; sha256: string }> {
  const counted = { bytes: 0, hash: createHash('sha256') };
  await pipeline(source, byteLimit(maxBytes, counted), createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  if (counted.bytes > maxBytes) throw tooLarge(maxBytes);
  return { bytes: counted.bytes, sha256: counted.hash.digest('hex') };
}

/**
 * The multipart parser for `contentType`, or null when it names no boundary (RFC 2046: 1 to 70
 * characters): busboy throws from its constructor without one, and takes an empty one only to
 * fail at the first byte. Either way the sender's mistake, answered as one.
 */
function multipartParser(contentType: string | null): ReturnType<typeof Busboy> | null {
  if (!/;\s*boundary\s*=\s*(?:"[^"]+"|[^";\s]+)/i.test(contentType ?? '')) return null;
  try {
    return Busboy({
      headers: { 'content-type': contentType ?? '' },
      limits: { files: 1, fields: 50, fieldSize: 64 * 1024, parts: 60 },
    });
  } catch {
    return null;
  }
}

/** The part named `file` of a multipart body, written to `file`; other parts are read past. */
function writeMultipartFile(
  upload: UploadBody,
  file: string,
  maxBytes: number,
): Promise<{ bytes: number; sha256: string; name: string | null; type: string }> {
  return new Promise((resolve, reject) => {
    let found: Promise<{ bytes: number; sha256: string; name: string | null; type: string }> | null = null;
    const parser = multipartParser(upload.contentType);
    if (!parser) {
      reject(new UploadRefused('malformed', NO_BOUNDARY));
      return;
    }
    parser.on('file', (field, stream, filename, _encoding, mimeType) => {
      if (field !== 'file' || found) {
        stream.resume();
        return;
      }
      found = writeLimited(stream, file, maxBytes).then((written) => ({
        ...written,
        name: filename || null,
        type: mediaType(mimeType),
      }));
      // A failure here is reported once the body has been read (below), not as an unhandled rejection.
      found.catch(() => undefined);
    });
    parser.on('error', (err: Error) =>
      reject(new UploadRefused('malformed', `The multipart body could not be read: ${err.message}`)),
    );
    parser.on('finish', () => {
      if (!found) reject(new UploadRefused('no-file', 'Attach the file in a field named "file".'));
      else found.then(resolve, reject);
    });
    upload.stream.on('error', reject);
    upload.stream.pipe(parser);
  });
}

/**
 * Writes an upload to a new file under `dir`, refusing it past `maxBytes` as soon as that is
 * known (the declared length first, then the bytes as they come): the reader streams from this
 * file, so no upload is ever held whole in memory, and an XLSX (a zip, read from its end) can
 * be read at all. The file is readable by this process's user only.
 */
export async function spoolUpload(upload: UploadBody, opts: { dir: string; maxBytes: number }): Promise<SpooledFile> {
  const type = mediaType(upload.contentType);
  const multipart = type === 'multipart/form-data';
  const declared = multipart ? null : formatOf(type);
  if (!multipart && declared === undefined) throw new UploadRefused('media-type', ACCEPTED);
  if (!multipart && upload.contentLength !== null && upload.contentLength > opts.maxBytes)
    throw tooLarge(opts.maxBytes);
  await mkdir(opts.dir, { recursive: true, mode: 0o700 });
  const file = path.join(opts.dir, `upload-${randomUUID()}`);
  const remove = () => rm(file, { force: true });
  try {
    let written: { bytes: number; sha256: string };
    let name = upload.filename;
    let format: ImportFormat | null = declared ?? null;
    if (multipart) {
      const part = await writeMultipartFile(upload, file, opts.maxBytes);
      const partFormat = formatOf(part.type);
      if (partFormat === undefined) throw new UploadRefused('media-type', ACCEPTED);
      written = part;
      name = part.name ?? name;
      format = partFormat;
    } else {
      written = await writeLimited(upload.stream, file, opts.maxBytes);
    }
    const { bytes, sha256 } = written;
    if (bytes === 0) throw new UploadRefused('empty', 'The file is empty.');
    return { path: file, bytes, sha256, name: name ? path.basename(name).slice(0, 255) : null, format, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}
