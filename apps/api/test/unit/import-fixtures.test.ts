import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { matchColumns, recordOf } from '../../src/imports/reading/index.js';
import { LARAVEL_PASSWORDS, writeFixtures } from '../fixtures/imports/make-fixtures.js';
import { fixture, readAll } from './import-support.js';

describe('reading the checked-in import fixtures', () => {
  it('reads an Excel-on-Windows CSV: semicolons, Windows-1252 accents, CRLF', async () => {
    const { detected, rows } = await readAll(fixture('excel-windows.csv'));
    expect(detected).toEqual({
      format: 'csv',
      encoding: 'windows-1252',
      delimiter: ';',
      sheet: null,
      headers: ['Name', 'E-Mail', 'Roles', 'Active'],
    });
    expect(rows).toHaveLength(60);
    expect(rows[0]).toEqual({ line: 2, values: ['Zoë Müller', 'zoe.muller0@example.com', 'editor', 'no'] });
    expect(rows[2]?.values.slice(0, 3)).toEqual(['Søren Müller', 'sren.muller2@example.com', 'editor;viewer']);
    const names = rows.map((row) => row.values[0]);
    expect(names).toEqual(expect.arrayContaining(['Jürgen Weiß', 'Íñigo Núñez', 'Françoise Légeré', 'Mónica Peña']));
    expect(names.join('')).not.toMatch(/[\uFFFD?Ã]/);
    expect(rows.at(-1)?.line).toBe(61);
  });

  it('reads a UTF-8-BOM CSV with a quoted newline and a formula-looking name kept as text', async () => {
    const { detected, rows } = await readAll(fixture('utf8-bom-quoted.csv'));
    expect(detected).toMatchObject({ format: 'csv', encoding: 'utf-8', delimiter: ',' });
    expect(detected.headers).toEqual(['name', 'email', 'roles', 'is_active']);
    expect(rows.map((row) => row.line)).toEqual([2, 3, 5, 6, 7]);
    expect(rows[1]?.values[0]).toBe('Anne\nMarie Dupont');
    expect(rows[2]?.values[0]).toBe('=HYPERLINK("http://evil.example","click")');
    expect(rows[3]?.values.slice(0, 3)).toEqual(['Smith, John', 'john.smith@example.com', 'editor|viewer']);
    expect(rows[4]?.values).toEqual(['Grace Hopper', 'grace@example.com', '', '']);
  });

  it('reads an exceljs workbook with dates and numbers as Excel displays them', async () => {
    const { detected, rows } = await readAll(fixture('dates-and-numbers.xlsx'));
    expect(detected).toEqual({
      format: 'xlsx',
      encoding: null,
      delimiter: null,
      sheet: 'People',
      headers: ['Name', 'Email', 'Joined', 'Employee No', 'Active'],
    });
    expect(rows).toHaveLength(20);
    expect(rows[0]).toEqual({ line: 2, values: ['12345', 'person1@example.com', '26/11/2026', '1000', 'TRUE'] });
    expect(rows[19]).toEqual({
      line: 21,
      values: ['Person 20', 'person20@example.com', '15/12/2026', '1019', 'FALSE'],
    });
  });

  it('reads the second sheet of that workbook by name', async () => {
    const { detected, rows } = await readAll(fixture('dates-and-numbers.xlsx'), { sheet: 'Notes' });
    expect(detected.sheet).toBe('Notes');
    expect(detected.headers).toEqual(['Exported for the import tests']);
    expect(rows).toEqual([]);
  });

  it('reads NDJSON with headers in order of first appearance and arrays joined', async () => {
    const { detected, rows } = await readAll(fixture('people.ndjson'));
    expect(detected).toEqual({
      format: 'ndjson',
      encoding: 'utf-8',
      delimiter: null,
      sheet: null,
      headers: ['name', 'email', 'roles', 'is_active', 'external_id'],
    });
    expect(rows).toHaveLength(20);
    expect(rows[0]).toEqual({ line: 1, values: ['Nd Person 1', 'nd1@example.com', 'editor|viewer', 'true', ''] });
    expect(rows[4]).toEqual({ line: 5, values: ['Nd Person 5', 'nd5@example.com', 'viewer', 'false', 'EXT-0005'] });
  });

  it('reads the every-error file with one row per documented line', async () => {
    const { detected, rows } = await readAll(fixture('every-error.csv'));
    expect(detected.headers).toEqual(['name', 'email', 'roles', 'is_active', 'password_hash']);
    expect(rows.map((row) => row.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(rows[2]?.values[1]).toBe('zero\u200Bwidth@example.com');
    expect(rows[10]?.values[0]).toHaveLength(101);
    const { columns } = matchColumns(detected.headers);
    const badActive = rows.find((row) => row.line === 8) as (typeof rows)[number];
    expect(recordOf(badActive, columns)).toEqual({ error: { code: 'BAD_ACTIVE', message: expect.any(String) } });
  });

  it('maps the Laravel export password column to password_hash, and its hashes verify', async () => {
    const { detected, rows } = await readAll(fixture('laravel-users.csv'));
    const match = matchColumns(detected.headers, {}, rows.slice(0, 20));
    expect(match.columns.find((c) => c.header === 'password')?.field).toBe('password_hash');
    // Its `id` reads as an account id (an upsert would name accounts by it): map it away for another system's ids.
    expect(match.columns.find((c) => c.header === 'id')?.field).toBe('id');
    expect(match.unknown).toEqual(['email_verified_at', 'remember_token', 'created_at', 'updated_at']);
    expect(match.missing).toEqual([]);
    const records = rows.map((row) => recordOf(row, match.columns));
    const plaintext = LARAVEL_PASSWORDS;
    records.forEach((result, i) => {
      if (!('record' in result)) throw new Error('expected a record');
      const hash = result.record.password_hash as string;
      expect(hash.startsWith('$2y$10$')).toBe(true);
      expect(result.record.password).toBeNull();
      // $2y$ is PHP's name for the same algorithm as $2b$.
      expect(bcrypt.compareSync(plaintext[i] as string, hash.replace(/^\$2y\$/, '$2b$'))).toBe(true);
    });
  });

  it('has on disk exactly what make-fixtures.ts writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-fixtures-'));
    try {
      await writeFixtures(dir);
      for (const name of [
        'excel-windows.csv',
        'utf8-bom-quoted.csv',
        'people.ndjson',
        'every-error.csv',
        'laravel-users.csv',
      ]) {
        expect(readFileSync(join(dir, name)).equals(readFileSync(fixture(name))), name).toBe(true);
      }
      // The zip's entry timestamps change with the clock; the cells must not.
      const [written, checkedIn] = await Promise.all([
        readAll(join(dir, 'dates-and-numbers.xlsx')),
        readAll(fixture('dates-and-numbers.xlsx')),
      ]);
      expect(written).toEqual(checkedIn);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
