// Builds the API for production: src/main.ts and the CLI bundled to JavaScript in dist/, so
// `npm start` runs plain `node dist/main.js` (no TypeScript loader in memory, no compile at
// start). The workspace packages (@app/contracts: TypeScript source) are bundled in; every
// registry dependency stays an import resolved from node_modules at run time, so native modules
// (sqlite3) and packages that read their own files (exceljs, pino) work as installed.
import fs from 'node:fs';
import { build } from 'esbuild';

const apiDir = new URL('..', import.meta.url);
const pkg = JSON.parse(fs.readFileSync(new URL('package.json', apiDir), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@app/'));

fs.rmSync(new URL('dist', apiDir), { recursive: true, force: true });
await build({
  absWorkingDir: new URL('.', apiDir).pathname,
  entryPoints: { main: 'src/main.ts', cli: 'src/cli/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // dist/ sits as deep as src/, so paths found from import.meta.url (the repository root, the
  // package.json) resolve the same from either.
  external,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
