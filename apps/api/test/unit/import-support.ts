import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';
import {
  ImportFileError,
  type ImportFileErrorCode,
  type OpenedImport,
  type ReadOptions,
  type SourceRow,
  openImportFile,
} from '../../src/imports/reading/index.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/imports/', import.meta.url));
export const fixture = (name: string) => join(FIXTURES, name);

export const LIMITS = { maxRows: 10_000, maxUncompressedBytes: 50 * 1024 * 1024 };

/**
 * How many of this process's descriptors are open on `path`: the reader's own, where counting all
 * of them would count the test runner's (its pool, its workers) too.
 */
export function descriptorsOn(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

/** A scratch folder for the files a test writes, removed after the file's tests. */
export function scratch(): (name: string, content: string | Buffer) => string {
  const dir = mkdtempSync(join(tmpdir(), 'import-read-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (name, content) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
}

export async function readAll(
  path: string,
  options: Partial<ReadOptions> = {},
): Promise<{ detected: OpenedImport['detected']; rows: SourceRow[] }> {
  const { detected, rows } = await openImportFile(path, { limits: LIMITS, ...options });
  const all: SourceRow[] = [];
  for await (const row of rows) all.push(row);
  return { detected, rows: all };
}

/** The ImportFileError reading the file ends with, opening or iterating. */
export async function failure(path: string, options: Partial<ReadOptions> = {}): Promise<ImportFileError> {
  try {
    await readAll(path, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportFileError);
    return error as ImportFileError;
  }
  throw new Error('expected the file to be refused');
}

export async function expectRefused(
  path: string,
  code: ImportFileErrorCode,
  options: Partial<ReadOptions> = {},
): Promise<ImportFileError> {
  const error = await failure(path, options);
  expect(error.code).toBe(code);
  // One sentence for the person who uploaded the file, never a library's wording.
  expect(error.message).toMatch(/^[A-Z].*[.]$/);
  expect(error.message).not.toMatch(/CSV_|Error:|ENOENT|stack|undefined/);
  return error;
}
