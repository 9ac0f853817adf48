// Builds the API for production: src/main.ts and the CLI bundled to JavaScript in dist/, so
// `npm start` runs plain `node dist/main.js` (no TypeScript loader in memory, no compile at
// start). The options are shared with the CLI launcher (esbuild-options.mjs).
import fs from 'node:fs';
import { build } from 'esbuild';
import { apiDir, esbuildOptions } from './esbuild-options.mjs';

// Another folder beside dist/ may be named (the benchmark builds into .bench-build/, so a build of
// its own never swaps dist/ under a server the browser tests started from it).
const outdir = process.argv[2] ?? 'dist';
if (!/^\.?[\w-]+$/.test(outdir)) throw new Error(`build into a folder of apps/api, not ${outdir}`);
fs.rmSync(new URL(outdir, apiDir), { recursive: true, force: true });
// The mail sender's thread (src/mail-worker.ts) is an entry of its own, found beside main.js.
await build(
  esbuildOptions({
    entryPoints: { main: 'src/main.ts', cli: 'src/cli/index.ts', 'mail-worker': 'src/mail-worker.ts' },
    outdir,
  }),
);
