// `npm run cli -- <command>`: runs the operator CLI, compiled on first use and again only when its
// sources changed. It compiles into its own folder (.cli-build/, never dist/), so running a
// command never rewrites or removes the files a running server was started from, and a command
// costs the CLI's own start-up, not a build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { apiDir, esbuildOptions } from './esbuild-options.mjs';

const api = apiDir.pathname;
const root = path.resolve(api, '../..');
const outDir = path.join(api, '.cli-build');
const stamp = path.join(outDir, 'sources.stamp');

/** What the bundle is made of: the API's and the contracts' sources, the options and the lock file. */
const inputs = [
  path.join(api, 'src'),
  path.join(root, 'packages/contracts/src'),
  path.join(api, 'package.json'),
  path.join(api, 'scripts/esbuild-options.mjs'),
  path.join(root, 'package-lock.json'),
];

function newestChange(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(file).map((name) => newestChange(path.join(file, name))));
}

/** A fingerprint of the inputs: the newest modification time and the file count (a deletion counts). */
function fingerprint() {
  const count = (file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isDirectory()) return stat ? 1 : 0;
    return fs.readdirSync(file).reduce((n, name) => n + count(path.join(file, name)), 0);
  };
  return inputs.map((file) => `${newestChange(file)}:${count(file)}`).join(' ');
}

const current = fingerprint();
const built = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8') : '';
if (built !== current || !fs.existsSync(path.join(outDir, 'cli.js'))) {
  // Compile beside the old build and swap, so a command running meanwhile keeps its files.
  const next = `${outDir}.next`;
  fs.rmSync(next, { recursive: true, force: true });
  try {
    await build(esbuildOptions({ entryPoints: { cli: 'src/cli/index.ts' }, outdir: '.cli-build.next' }));
  } catch {
    // esbuild has printed each error with its file and line; its stack adds nothing.
    console.error('The CLI could not be compiled: see the errors above.');
    process.exit(1);
  }
  fs.writeFileSync(path.join(next, 'sources.stamp'), current);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.renameSync(next, outDir);
}

const res = spawnSync(
  process.execPath,
  ['--enable-source-maps', path.join(outDir, 'cli.js'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(res.status ?? 1);
