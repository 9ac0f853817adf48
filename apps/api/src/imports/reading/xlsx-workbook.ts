import { posix } from 'node:path';
import { ImportFileError } from './errors.js';
import { formatCode } from './number-format.js';
import { DEFAULT_MAX_ENTRIES, type ReadLimits } from './types.js';
import { readSharedStrings, type SharedStrings } from './xlsx-shared-strings.js';
import { readXml } from './xlsx-xml.js';
import type { XlsxZip } from './xlsx-zip.js';

export interface Workbook {
  sheets: { name: string; path: string; hidden: boolean }[];
  date1904: boolean;
  /** Format code of each cell style (`s` attribute) index. */
  styleFormats: string[];
  sharedStrings: SharedStrings;
}

function damaged(): ImportFileError {
  return new ImportFileError('UNREADABLE', 'The Excel file is damaged or is not an .xlsx file.');
}

/** Excel's own limit is 64 000 cell formats; a styles part listing more is a memory bomb, not styles. */
const MAX_FORMATS = 65_536;

/** A part lists more of `what` than any workbook has: each is kept in memory, so it stops here. */
function tooMany(max: number, what: string): ImportFileError {
  return new ImportFileError(
    'MALFORMED',
    `The Excel file lists more than ${max.toLocaleString('en-US')} ${what}; no spreadsheet writes that.`,
  );
}

/** A relationship target resolved against the folder of the part that names it. */
function resolveTarget(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  return posix.normalize(posix.join(posix.dirname(fromPart), target));
}

/** A workbook's relationships point at its parts, so there are about as many as it has parts. */
async function relationships(
  zip: XlsxZip,
  part: string,
  maxParts: number,
): Promise<Map<string, { type: string; target: string }>> {
  const relsPath = posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`);
  const rels = new Map<string, { type: string; target: string }>();
  if (!zip.has(relsPath)) return rels;
  await readXml(await zip.open(relsPath), {
    open(name, attrs) {
      if (name === 'Relationship' && attrs.Id && attrs.Target) {
        rels.set(attrs.Id, { type: attrs.Type ?? '', target: resolveTarget(part, attrs.Target) });
        if (rels.size > maxParts) throw tooMany(maxParts, 'relationships');
      }
    },
  });
  return rels;
}

async function workbookPath(zip: XlsxZip, maxParts: number): Promise<string> {
  const root = await relationships(zip, '', maxParts);
  for (const rel of root.values()) {
    if (rel.type.endsWith('/officeDocument')) return rel.target;
  }
  if (zip.has('xl/workbook.xml')) return 'xl/workbook.xml';
  throw damaged();
}

async function styleFormats(zip: XlsxZip, path: string | undefined): Promise<string[]> {
  if (!path || !zip.has(path)) return [];
  const custom = new Map<number, string>();
  const xfFormats: number[] = [];
  let inCellXfs = false;
  await readXml(await zip.open(path), {
    open(name, attrs) {
      if (name === 'numFmt' && attrs.numFmtId && attrs.formatCode !== undefined) {
        custom.set(Number(attrs.numFmtId), attrs.formatCode);
        if (custom.size > MAX_FORMATS) throw tooMany(MAX_FORMATS, 'number formats');
      } else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        xfFormats.push(Number(attrs.numFmtId ?? 0));
        if (xfFormats.length > MAX_FORMATS) throw tooMany(MAX_FORMATS, 'cell formats');
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return xfFormats.map((id) => formatCode(id, custom));
}

/** The workbook's sheets, date system, styles and shared strings: what a sheet's cells refer to. */
export async function readWorkbook(zip: XlsxZip, limits: ReadLimits): Promise<Workbook> {
  const maxParts = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const path = await workbookPath(zip, maxParts);
  if (!zip.has(path)) throw damaged();
  const rels = await relationships(zip, path, maxParts);
  const sheets: Workbook['sheets'] = [];
  let date1904 = false;
  await readXml(await zip.open(path), {
    open(name, attrs) {
      if (name === 'workbookPr') date1904 = attrs.date1904 === '1' || attrs.date1904 === 'true';
      if (name !== 'sheet' || !attrs.name) return;
      const id = attrs['r:id'] ?? Object.entries(attrs).find(([key]) => key.endsWith(':id'))?.[1];
      const target = id ? rels.get(id) : undefined;
      const hidden = attrs.state === 'hidden' || attrs.state === 'veryHidden';
      if (target) sheets.push({ name: attrs.name, path: target.target, hidden });
      if (sheets.length > maxParts) throw tooMany(maxParts, 'sheets');
    },
  });
  const byType = (suffix: string) => [...rels.values()].find((rel) => rel.type.endsWith(suffix))?.target;
  return {
    sheets,
    date1904,
    styleFormats: await styleFormats(zip, byType('/styles')),
    sharedStrings: await readSharedStrings(zip, byType('/sharedStrings'), limits),
  };
}
