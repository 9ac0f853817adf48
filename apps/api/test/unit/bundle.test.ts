import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The production bundle (`dist/`, built once for the suite by test/build.global-setup.ts) as
 * memory sees it at start: what main.js loads before serving anything, and how V8 stores it.
 */
const distDir = path.resolve(fileURLToPath(import.meta.url), '../../../dist');
const source = (file: string) => fs.readFileSync(path.join(distDir, file), 'utf8');

/** The packages main.js loads at start: its static imports, followed through the bundle's chunks. */
function packagesLoadedAtStart(): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // Static imports only: `import(...)` is what loads on first use.
    for (const [, from] of source(file).matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gms)) {
      if (from?.startsWith('./')) visit(from.slice(2));
      else if (from && !from.startsWith('node:')) packages.add(from);
    }
  };
  visit('main.js');
  return packages;
}

describe('the production bundle', () => {
  it('loads the import readers and the mail library only when an import or a mail first needs them', () => {
    const loaded = [...packagesLoadedAtStart()];
    // Loaded at start, as every request needs them: the reading of this test is right.
    expect(loaded).toEqual(expect.arrayContaining(['sequelize', 'fastify', 'zod']));
    for (const lazy of ['nodemailer', 'csv-parse', 'yauzl', 'saxes', 'stream-json', 'iconv-lite', 'numfmt']) {
      expect(loaded.filter((name) => name === lazy || name.startsWith(`${lazy}/`))).toEqual([]);
    }
  });

  it('is ASCII throughout, so V8 keeps its source one byte per character', () => {
    const files = fs.readdirSync(distDir).filter((name) => name.endsWith('.js'));
    expect(files.length).toBeGreaterThan(2);
    for (const file of files)
      expect({ file, ascii: /^[\p{ASCII}]*$/u.test(source(file)) }).toEqual({ file, ascii: true });
  });
});
