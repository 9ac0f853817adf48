import { ImportFileError, textTooLong } from './errors.js';
import {
  DEFAULT_MAX_SHARED_STRING_BYTES,
  EXCEL_MAX_CELL_CHARS,
  maxCellChars,
  maxSharedStrings,
  type ReadLimits,
  xlsxMaxRows,
} from './types.js';
import { cannotFit, readXml } from './xlsx-xml.js';
import type { XlsxZip } from './xlsx-zip.js';

/** ES2024's resizable ArrayBuffer: Node 20 has it, the TypeScript lib the project builds with (ES2023) not yet. */
interface ResizableArrayBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}
const ResizableArrayBuffer = ArrayBuffer as unknown as new (
  byteLength: number,
  options: { maxByteLength: number },
) => ResizableArrayBuffer;

/** Storage grows by this much at a time (at least); the addresses are reserved up front, so it is never copied. */
const GROWTH = 1024 * 1024;

/**
 * The workbook's shared strings, packed: their UTF-8 bytes end to end, and where each ends as a
 * 32-bit offset, in two resizable ArrayBuffers outside V8's heap. A string costs its bytes and
 * 4 more; as a JS string in an array it cost about 35 (the probe's 70 million two-letter strings
 * took 2.6 GB). Both buffers reserve their limit's addresses and take memory only as they fill;
 * `release()` hands it back to the system at once, where garbage waits for a collection that an
 * idle server may not run for hours.
 */
export class SharedStrings {
  private readonly textStore: ResizableArrayBuffer;
  private readonly endStore: ResizableArrayBuffer;
  /** Views of the stores: the text's is remade when its store grows, the ends' follows by itself. */
  private text = Buffer.alloc(0);
  private readonly ends: Uint32Array;
  private used = 0;
  count = 0;

  constructor(
    readonly maxCount: number,
    readonly maxBytes: number,
  ) {
    this.textStore = new ResizableArrayBuffer(0, { maxByteLength: maxBytes });
    this.endStore = new ResizableArrayBuffer(0, { maxByteLength: maxCount * 4 });
    this.ends = new Uint32Array(this.endStore);
  }

  get bytes(): number {
    return this.used;
  }

  /** Adds a text the limits leave room for (the caller refuses the file before one that does not fit). */
  add(text: string): void {
    const length = Buffer.byteLength(text, 'utf8');
    if (this.count >= this.maxCount || this.used + length > this.maxBytes) {
      throw new RangeError('the shared strings table is full');
    }
    if (this.used + length > this.text.length) {
      this.textStore.resize(Math.min(this.maxBytes, Math.max(this.used + length, this.text.length + GROWTH)));
      this.text = Buffer.from(this.textStore);
    }
    if (this.count === this.ends.length) {
      this.endStore.resize(Math.min(this.maxCount, this.ends.length + GROWTH / 4) * 4);
    }
    this.used += this.text.write(text, this.used, 'utf8');
    this.ends[this.count++] = this.used;
  }

  /** The text of string `index` (0-based, as a cell's `<v>` names it), or undefined past the end. */
  at(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
    const start = index === 0 ? 0 : (this.ends[index - 1] as number);
    return this.text.toString('utf8', start, this.ends[index]);
  }

  /** Gives the memory back; the table is empty afterwards. */
  release(): void {
    this.count = 0;
    this.used = 0;
    this.text = Buffer.alloc(0);
    this.textStore.resize(0);
    this.endStore.resize(0);
  }
}

function tooMany(limits: ReadLimits): ImportFileError {
  const max = maxSharedStrings(limits).toLocaleString('en-US');
  const rows = xlsxMaxRows(limits).toLocaleString('en-US');
  return new ImportFileError(
    'TOO_MANY_SHARED_STRINGS',
    `The workbook holds more than ${max} shared texts, more than a sheet of ${rows} rows can use; split it into smaller files.`,
  );
}

function tooManyBytes(maxBytes: number): ImportFileError {
  const mb = Math.floor(maxBytes / (1024 * 1024));
  return new ImportFileError(
    'TOO_MANY_SHARED_STRINGS',
    `The workbook's shared texts take more than ${mb} MB; split it into smaller files.`,
  );
}

/**
 * Reads the shared strings in order, rich text runs joined, phonetic guides (`rPh`) left out as
 * Excel shows them; each refused past Excel's cell limit while it is still being read, and the
 * table refused past its count (as declared by its writer, then as counted) and its bytes.
 */
export async function readSharedStrings(
  zip: XlsxZip,
  path: string | undefined,
  limits: ReadLimits,
): Promise<SharedStrings> {
  const maxCount = maxSharedStrings(limits);
  const maxBytes = limits.maxSharedStringBytes ?? DEFAULT_MAX_SHARED_STRING_BYTES;
  const strings = new SharedStrings(maxCount, maxBytes);
  if (!path || !zip.has(path)) return strings;
  const maxChars = Math.min(maxCellChars(limits), EXCEL_MAX_CELL_CHARS);
  const tooLong = () => textTooLong(`Shared string ${strings.count + 1}`, undefined, maxChars);
  let current = '';
  let inText = false;
  let inPhonetic = false;
  const reading = readXml(await zip.open(path), {
    open(name, attrs) {
      if (name === 'si') current = '';
      else if (name === 't') inText = true;
      else if (name === 'rPh') inPhonetic = true;
      else if (name === 'sst' && Number(attrs.uniqueCount) > maxCount) throw tooMany(limits);
    },
    text(text) {
      if (!inText || inPhonetic) return;
      current += text;
      if (current.length > maxChars) throw tooLong();
    },
    pending(chars) {
      if (inText && !inPhonetic && cannotFit(current.length, chars, maxChars)) throw tooLong();
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') inPhonetic = false;
      else if (name === 'si') {
        if (strings.count >= maxCount) throw tooMany(limits);
        if (strings.bytes + Buffer.byteLength(current, 'utf8') > maxBytes) throw tooManyBytes(maxBytes);
        strings.add(current);
      }
    },
  });
  try {
    await reading;
  } catch (error) {
    strings.release();
    throw error;
  }
  return strings;
}
