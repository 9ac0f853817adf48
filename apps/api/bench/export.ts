import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { authHeaders } from './http-load.js';
import type { BenchContext, ExportScenario } from './scenarios.js';
import type { ApiServer } from './server.js';
import { withTimeout } from './stats.js';

export interface DownloadResult {
  status: number;
  contentType: string;
  disposition: string;
  /** Time to first byte of the body and to the last byte, seconds. */
  ttfbSeconds: number;
  seconds: number;
  bytes: number;
  /** Data rows (header excluded); NaN when they could not be counted. */
  rows: number;
  peakRssMb: number;
  bodySnippet: string;
}

const DOWNLOAD_LIMIT_MS = 15 * 60_000;
const COUNT_LIMIT_MS = 10 * 60_000;

/** CRLF/LF line ends outside quoted fields: the CSV's records, header included. */
function csvRecordCounter() {
  let inQuotes = false;
  let records = 0;
  let lastWasNewline = true;
  return {
    push(chunk: Buffer) {
      for (let i = 0; i < chunk.length; i++) {
        const c = chunk[i];
        if (c === 0x22) inQuotes = !inQuotes;
        else if (c === 0x0a && !inQuotes) {
          records++;
          lastWasNewline = true;
          continue;
        }
        if (c !== 0x0d) lastWasNewline = false;
      }
    },
    records: () => records + (lastWasNewline ? 0 : 1),
  };
}

async function countXlsxRows(file: string): Promise<number> {
  let rows = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  for await (const sheet of reader) {
    for await (const _row of sheet as AsyncIterable<unknown>) rows++;
    break;
  }
  return rows - 1;
}

/**
 * Downloads the whole export once, timing the first and the last byte and the API's peak RSS.
 * The body is counted as it streams (CSV, JSON) or saved to a temp file and counted afterwards,
 * untimed (XLSX).
 */
export function timeDownload(ctx: BenchContext, server: ApiServer, scenario: ExportScenario): Promise<DownloadResult> {
  return timeDownloadOf(ctx.baseUrl + scenario.path(ctx), authHeaders(ctx), server, scenario);
}

/** The same for any download the API streams (a job's report too): its URL, headers and format. */
export async function timeDownloadOf(
  url: string,
  headers: Record<string, string>,
  server: ApiServer,
  scenario: Pick<ExportScenario, 'name' | 'format'>,
): Promise<DownloadResult> {
  const tmp = path.join(os.tmpdir(), `ua-bench-${process.pid}-${scenario.name}.${scenario.format}`);
  server.resetPeak();
  const started = performance.now();
  const ac = new AbortController();
  const work = (async () => {
    const res = await fetch(url, { headers: { ...headers, accept: '*/*' }, signal: ac.signal });
    const head = {
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      disposition: res.headers.get('content-disposition') ?? '',
    };
    let ttfb = Number.NaN;
    let bytes = 0;
    let snippet = '';
    const csv = csvRecordCounter();
    let jsonRows = 0;
    const out = scenario.format === 'xlsx' && res.ok ? fs.createWriteStream(tmp) : null;
    try {
      if (!res.body) throw new Error('no response body');
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (Number.isNaN(ttfb)) ttfb = (performance.now() - started) / 1000;
        const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        bytes += buf.length;
        if (snippet.length < 300) snippet += buf.subarray(0, 300).toString('utf8');
        if (scenario.format === 'csv') csv.push(buf);
        else if (scenario.format === 'json') {
          // One flat object per row; demo names and e-mails hold no braces.
          for (let i = 0; i < buf.length; i++) if (buf[i] === 0x7b) jsonRows++;
        } else if (out && !out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
    } finally {
      if (out) await new Promise<void>((r) => out.end(() => r()));
    }
    const seconds = (performance.now() - started) / 1000;
    return { ...head, ttfb, seconds, bytes, snippet, csvRecords: csv.records(), jsonRows };
  })();
  try {
    const d = await withTimeout(work, DOWNLOAD_LIMIT_MS, `download of ${scenario.name}`);
    const peakRssMb = server.peakRssMb();
    let rows = Number.NaN;
    if (d.status >= 200 && d.status < 300) {
      if (scenario.format === 'csv') rows = d.csvRecords - 1;
      else if (scenario.format === 'json') rows = d.jsonRows;
      else
        rows = await withTimeout(countXlsxRows(tmp), COUNT_LIMIT_MS, 'counting the XLSX rows').catch(() => Number.NaN);
    }
    return {
      status: d.status,
      contentType: d.contentType,
      disposition: d.disposition,
      ttfbSeconds: d.ttfb,
      seconds: d.seconds,
      bytes: d.bytes,
      rows,
      peakRssMb,
      bodySnippet: d.status >= 300 ? d.snippet : '',
    };
  } catch (err) {
    ac.abort();
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
