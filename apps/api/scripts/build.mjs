// Builds the API for production: src/main.ts and the CLI bundled to JavaScript in dist/, so
// `npm start` runs plain `node dist/main.js` (no TypeScript loader in memory, no compile at
// start). The options are shared with the CLI launcher (esbuild-options.mjs).
import fs from 'node:fs';
import { build } from 'esbuild';
import { apiDir, esbuildOptions } from './esbuild-options.mjs';

// Another folder beside dist/ may be named (the benchmark builds into .bench-build/, so a build of
// its own never swaps dist/ under a server the browser tests started from it).
const target = process.argv[2] ?? 'dist';
if (!/^\.?[\w-]+$/.test(target)) throw new Error(`build into a folder of apps/api, not ${target}`);
// Built beside the target, then swapped in: the browser tests and the scale-out bed build dist/
// at the same time, and a server or CLI started from it (or a chunk it loads on first use) must
// never find the folder half written or gone for the length of a build.
const outdir = `${target}.next-${process.pid}`;
fs.rmSync(new URL(outdir, apiDir), { recursive: true, force: true });
// The mail sender's thread (src/mail-worker.ts) is an entry of its own, found beside main.js.
await build(
  esbuildOptions({
    entryPoints: { main: 'src/main.ts', cli: 'src/cli/index.ts', 'mail-worker': 'src/mail-worker.ts' },
    outdir,
  }),
);

// V8 keeps every script's source for as long as it runs, one byte per character only when all of
// it is Latin-1. esbuild escapes non-ASCII characters in code (its `charset: 'ascii'` default) but
// keeps comments as written, and the typographic dashes of ours made the API's 1.2 MB of bundle
// cost 2.5 MB of heap for the process's life. Each such character of a comment becomes '?', one
// for one, so the source maps' columns still hold; one outside a comment stops the build.
for (const name of fs.readdirSync(new URL(outdir, apiDir))) {
  if (!name.endsWith('.js')) continue;
  const file = new URL(`${outdir}/${name}`, apiDir);
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  let changed = false;
  const ascii = lines.map((line, i) => {
    const at = line.search(/[\u0080-\uffff]/);
    if (at === -1) return line;
    const start = line.trimStart();
    const comment =
      start.startsWith('//') || start.startsWith('*') || start.startsWith('/*') || line.slice(0, at).includes('//');
    if (!comment) throw new Error(`${outdir}/${name}:${i + 1}: a non-ASCII character outside a comment`);
    changed = true;
    return line.replace(/[\u0080-\uffff]/g, '?');
  });
  if (changed) fs.writeFileSync(file, ascii.join('\n'));
}

// The swap: the old build moves aside and the new one takes its name, two renames apart. Should
// another build swap its own in between, that one moves aside too and the swap is tried again.
const at = (name) => new URL(name, apiDir);
const moved = [];
for (let attempt = 0; ; attempt += 1) {
  try {
    if (fs.existsSync(at(target))) {
      const aside = `${target}.old-${process.pid}-${attempt}`;
      fs.renameSync(at(target), at(aside));
      moved.push(aside);
    }
    fs.renameSync(at(outdir), at(target));
    break;
  } catch (err) {
    if (attempt >= 5 || !['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(err.code)) throw err;
  }
}
for (const aside of moved) fs.rmSync(at(aside), { recursive: true, force: true });
