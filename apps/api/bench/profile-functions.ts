import fs from 'node:fs';
import path from 'node:path';
import { type CallFrame, type CpuProfile, owner } from './cpu-profile.js';

/** The main thread's profile in `dir` (the largest: worker threads write smaller ones of their own). */
export function readProfileFile(dir: string): string {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}: the API did not exit cleanly`);
  const largest = files
    .map((f) => ({ f, size: fs.statSync(path.join(dir, f)).size }))
    .sort((a, b) => b.size - a.size)[0] as { f: string };
  return path.join(dir, largest.f);
}

/** `name (owner:line)`: a sampled function, named by where it is written (through the bundle's map). */
const where = (frame: CallFrame) => `${frame.functionName || '(anonymous)'} (${owner(frame)}:${frame.lineNumber + 1})`;

/**
 * Where the busy time went, as text: self time by function and by owner, and total time by
 * owner (each sample counted once for every owner on its stack) — "zod 12 % total" is all the
 * time spent inside zod, whoever called it.
 */
export function functionProfile(file: string, topN: number): string {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfFn = new Map<string, number>();
  const selfOwner = new Map<string, number>();
  const totalOwner = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, us: number) => m.set(k, (m.get(k) ?? 0) + us);
  let busyUs = 0;
  let allUs = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    allUs += us;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    busyUs += us;
    add(selfFn, where(node.callFrame), us);
    add(selfOwner, owner(node.callFrame), us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame || frame.functionName === '(root)') continue;
      const o = owner(frame);
      if (!seen.has(o)) add(totalOwner, o, us);
      seen.add(o);
    }
  });
  const pct = (us: number) => `${((100 * us) / Math.max(busyUs, 1)).toFixed(1).padStart(5)} %`;
  const table = (title: string, m: Map<string, number>) => [
    `${title}:`,
    ...[...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([k, us]) => `  ${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`),
  ];
  return [
    `busy ${(busyUs / 1e6).toFixed(1)} s of ${(allUs / 1e6).toFixed(1)} s sampled (shares below are of the busy time)`,
    ...table('self time by function', selfFn),
    ...table('self time by owner', selfOwner),
    ...table('total time by owner', totalOwner),
  ].join('\n');
}
