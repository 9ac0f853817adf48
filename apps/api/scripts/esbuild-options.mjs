// The esbuild options shared by the production build (build.mjs) and the CLI launcher (cli.mjs):
// the workspace packages (@app/contracts: TypeScript source) are bundled in; every registry
// dependency stays an import resolved from node_modules at run time, so native modules (sqlite3)
// and packages that read their own files (exceljs, pino) work as installed.
import fs from 'node:fs';

export const apiDir = new URL('..', import.meta.url);

export function esbuildOptions({ entryPoints, outdir }) {
  const pkg = JSON.parse(fs.readFileSync(new URL('package.json', apiDir), 'utf8'));
  return {
    absWorkingDir: new URL('.', apiDir).pathname,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // The output sits as deep as src/, so paths found from import.meta.url (the repository root,
    // the package.json) resolve the same from either.
    external: Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@app/')),
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  };
}
