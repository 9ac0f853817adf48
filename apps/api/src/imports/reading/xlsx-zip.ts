import { Transform, type Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ImportFileError } from './errors.js';
import { DEFAULT_MAX_ENTRIES, type ReadLimits } from './types.js';

/**
 * Deflate cannot exceed about 1 032:1; real sheets compress 5–50:1. A large part squeezed
 * harder than this is a bomb (sheet data this repetitive is not a list of people).
 */
const MAX_RATIO = 200;
const RATIO_CHECKED_ABOVE = 1024 * 1024;

function tooLarge(limits: ReadLimits): ImportFileError {
  const mb = Math.floor(limits.maxUncompressedBytes / (1024 * 1024));
  return new ImportFileError(
    'TOO_LARGE_UNCOMPRESSED',
    `The Excel file unpacks to more than ${mb} MB; split it into smaller files.`,
  );
}

function damaged(): ImportFileError {
  return new ImportFileError('UNREADABLE', 'The Excel file is damaged or is not an .xlsx file.');
}

export interface XlsxZip {
  has(name: string): boolean;
  /** The inflated part, counted against the limit as it flows (a lying size is caught too). */
  open(name: string): Promise<Readable>;
  close(): void;
}

/**
 * Opens an XLSX by its central directory (yauzl), and refuses a decompression bomb before
 * inflating anything: too many entries, a declared total past the limit, or a part compressed
 * past any real ratio. While reading, inflated bytes are counted against the same limit, and
 * yauzl's `validateEntrySizes` fails a part that inflates past its declared size.
 */
export async function openXlsxZip(path: string, limits: ReadLimits): Promise<XlsxZip> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch {
    throw damaged();
  }
  try {
    if (zip.entryCount > (limits.maxEntries ?? DEFAULT_MAX_ENTRIES)) throw tooLarge(limits);
    return reader(zip, await checkedEntries(zip, limits), limits);
  } catch (error) {
    zip.close();
    throw error;
  }
}

/** The central directory's entries by name, refused at the first that makes the file a bomb. */
async function checkedEntries(zip: ZipFile, limits: ReadLimits): Promise<Map<string, Entry>> {
  let declared = 0;
  const byName = new Map<string, Entry>();
  try {
    for await (const entry of zip.eachEntry()) {
      declared += entry.uncompressedSize;
      const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
      if (declared > limits.maxUncompressedBytes) throw tooLarge(limits);
      if (entry.uncompressedSize > RATIO_CHECKED_ABOVE && ratio > MAX_RATIO) throw tooLarge(limits);
      byName.set(entry.fileName.replace(/^\/+/, '').toLowerCase(), entry);
    }
  } catch (error) {
    // yauzl's own refusal of a damaged directory says nothing the importer can act on.
    throw error instanceof ImportFileError ? error : damaged();
  }
  return byName;
}

function reader(zip: ZipFile, byName: Map<string, Entry>, limits: ReadLimits): XlsxZip {
  let inflated = 0;
  return {
    has: (name) => byName.has(name.toLowerCase()),
    async open(name) {
      const entry = byName.get(name.toLowerCase());
      if (!entry) throw damaged();
      const raw = await zip.openReadStreamPromise(entry).catch(() => {
        throw damaged();
      });
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          inflated += chunk.length;
          done(inflated > limits.maxUncompressedBytes ? tooLarge(limits) : null, chunk);
        },
      });
      raw.on('error', (error: Error) => {
        // yauzl's size check: the part inflates past what the central directory declared.
        counted.destroy(/too many bytes|expected/i.test(error.message) ? tooLarge(limits) : damaged());
      });
      counted.on('close', () => raw.destroy());
      return raw.pipe(counted);
    },
    close: () => zip.close(),
  };
}
