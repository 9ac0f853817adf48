import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts of a V8 `.cpuprofile` (as `node --cpu-prof` writes it) that the summary reads. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  /** A package (`mysql2`), a Node.js module (`node:zlib`), a file of the API (`export.csv.ts`) or V8's own (`(garbage collector)`). */
  name: string;
  ms: number;
  /** Share of the whole profile, idle time included. */
  percent: number;
}

export interface ProfileSummary {
  seconds: number;
  /** The main thread waiting (on the database, the socket, zlib's pool threads). */
  idlePercent: number;
  /** Where the busy time went, largest first. */
  top: ProfileShare[];
}

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

/** The bundle's source maps (dist/*.js.map), loaded once each. */
const maps = new Map<string, SourceMap | null>();
function sourceMapOf(url: string): SourceMap | null {
  if (!maps.has(url)) {
    try {
      const file = url.startsWith('file:') ? fileURLToPath(url) : url;
      maps.set(url, new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8'))));
    } catch {
      maps.set(url, null);
    }
  }
  return maps.get(url) ?? null;
}

/** The bundled function's original file: `src/modules/users/export.csv.ts` → `export.csv.ts`. */
export function bundledSource(frame: CallFrame): string | null {
  const entry = sourceMapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  const source = entry && 'originalSource' in entry ? entry.originalSource : null;
  return source ? source.replace(/^.*\/(src|packages)\//, '$1/') : null;
}

/** Whom a sampled function belongs to: its npm package, Node's module, or the API's source file. */
export function owner(frame: CallFrame): string {
  const { url, functionName } = frame;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return url.replace(/^node:internal\//, 'node:');
  if (url.includes('/dist/') || url.includes('/.bench-build/'))
    return bundledSource(frame) ?? `API bundle (${path.basename(url)})`;
  if (url) return path.basename(url);
  // V8's and Node's native frames: (garbage collector), (program), writev, crc32…
  return functionName.startsWith('(') ? functionName : `native ${functionName || '(anonymous)'}`;
}

/** Self time by owner, from sample counts and the time between samples. */
export function summarizeProfile(profile: CpuProfile, topN = 8): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    totalUs += us;
    if (!node) return;
    const name = owner(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + us);
  });
  const idleUs = self.get('(idle)') ?? 0;
  self.delete('(idle)');
  const pct = (us: number) => (totalUs > 0 ? (100 * us) / totalUs : 0);
  const top = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, topN)
    .map(([name, us]) => ({ name, ms: us / 1000, percent: pct(us) }));
  return { seconds: totalUs / 1e6, idlePercent: pct(idleUs), top };
}

/** Reads the one profile `node --cpu-prof` left in `dir` (the main thread's), then removes the directory. */
export function readProfileDir(dir: string): ProfileSummary {
  try {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
    if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}: the API did not exit cleanly`);
    // Worker threads write their own, smaller profiles; the main thread's is the largest.
    const largest = files
      .map((f) => ({ f, size: fs.statSync(path.join(dir, f)).size }))
      .sort((a, b) => b.size - a.size)[0] as { f: string };
    return summarizeProfile(JSON.parse(fs.readFileSync(path.join(dir, largest.f), 'utf8')) as CpuProfile);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** "idle 41 %; mysql2 18 %, API (main.js) 12 %, …": one line for the report. */
export function profileLine(s: ProfileSummary): string {
  const parts = s.top.map((t) => `${t.name} ${t.percent.toFixed(0)} %`);
  return `main thread idle ${s.idlePercent.toFixed(0)} % of ${s.seconds.toFixed(1)} s; busy in ${parts.join(', ')}`;
}
