import type { ExportOutcome } from './report.js';
import { authHeaders } from './http-load.js';
import type { BenchContext, ExportScenario } from './scenarios.js';
import type { ApiServer } from './server.js';
import { withTimeout } from './stats.js';

const WALK_LIMIT_MS = 15 * 60_000;

interface Page {
  Resources?: unknown[];
  totalResults?: number;
  nextCursor?: string;
}

/**
 * A SCIM client's full cursor walk (RFC 9865), as a reconciliation pages through every user: the
 * first page with `cursor=` (empty), then each page's `nextCursor` until a page has none — one
 * request at a time, each body read whole. Timed from the first request to the last byte, with
 * the API's peak RSS sampled meanwhile (on a freshly started API, as an export is). Reported as an
 * export: `rows` are the resources received, `first byte` the first page's arrival.
 */
export async function runCursorWalk(
  ctx: BenchContext,
  server: ApiServer,
  scenario: ExportScenario,
  log: (s: string) => void,
): Promise<ExportOutcome> {
  const path = scenario.path(ctx);
  log(`${scenario.name}: GET ${path}&cursor=… to the end`);
  const outcome: ExportOutcome = { kind: 'export', scenario, path, status: 'ok', startRssMb: server.rssMb() };
  server.resetPeak();
  const started = performance.now();
  let firstPage = Number.NaN;
  let bytes = 0;
  let rows = 0;
  let pages = 0;
  let total = Number.NaN;
  let contentType = '';
  const ac = new AbortController();
  const walk = async (): Promise<{ status: number; snippet: string }> => {
    let cursor = '';
    for (;;) {
      const res = await fetch(`${ctx.baseUrl}${path}&cursor=${encodeURIComponent(cursor)}`, {
        headers: authHeaders(ctx),
        signal: ac.signal,
      });
      const text = await res.text();
      if (!res.ok) return { status: res.status, snippet: text.slice(0, 300) };
      if (pages === 0) {
        firstPage = (performance.now() - started) / 1000;
        contentType = res.headers.get('content-type') ?? '';
      }
      const page = JSON.parse(text) as Page;
      pages++;
      bytes += Buffer.byteLength(text);
      rows += page.Resources?.length ?? 0;
      if (typeof page.totalResults === 'number' && Number.isNaN(total)) total = page.totalResults;
      if (!page.nextCursor) return { status: res.status, snippet: '' };
      cursor = page.nextCursor;
    }
  };
  let end: { status: number; snippet: string };
  try {
    end = await withTimeout(walk(), WALK_LIMIT_MS, `cursor walk of ${scenario.name}`);
  } catch (err) {
    ac.abort();
    return { ...outcome, status: 'failed', note: err instanceof Error ? err.message : String(err) };
  }
  const seconds = (performance.now() - started) / 1000;
  if (end.status < 200 || end.status >= 300) {
    log(`  ${end.status} after ${pages} pages: ${end.snippet.slice(0, 200)}`);
    const status = end.status === 404 && pages === 0 ? 'missing' : 'failed';
    return { ...outcome, status, note: `HTTP ${end.status} after ${pages} pages: ${end.snippet.slice(0, 200)}` };
  }
  const peakRssMb = server.peakRssMb();
  log(
    `  ${seconds.toFixed(2)} s, ${pages.toLocaleString('en')} pages, ${rows.toLocaleString('en')} users ` +
      `(totalResults ${total}), ${bytes.toLocaleString('en')} bytes, peak RSS ${peakRssMb.toFixed(0)} MB`,
  );
  outcome.download = {
    status: end.status,
    contentType,
    disposition: `${pages} pages`,
    ttfbSeconds: firstPage,
    seconds,
    bytes,
    rows,
    peakRssMb,
    bodySnippet: '',
  };
  // Nothing is deleted meanwhile: the walk must have returned exactly what the first page counted.
  if (rows !== total) {
    outcome.status = 'failed';
    outcome.note = `walked ${rows} users where the first page counted ${total}`;
  }
  outcome.floorError = 'not measured for a walk (its requests are timed whole)';
  return outcome;
}
