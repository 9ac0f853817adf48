// Builds the API for production: src/main.ts and the CLI bundled to JavaScript in dist/, so
// `npm start` runs plain `node dist/main.js` (no TypeScript loader in memory, no compile at
// start). The options are shared with the CLI launcher (esbuild-options.mjs).
import fs from 'node:fs';
import { build } from 'esbuild';
import { apiDir, esbuildOptions } from './esbuild-options.mjs';

fs.rmSync(new URL('dist', apiDir), { recursive: true, force: true });
await build(esbuildOptions({ entryPoints: { main: 'src/main.ts', cli: 'src/cli/index.ts' }, outdir: 'dist' }));
