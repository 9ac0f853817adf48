import { describe, expect, it } from 'vitest';
import { expectRefused, readAll, scratch } from './import-support.js';

const file = scratch();

describe('reading a JSON array', () => {
  it('reads objects with headers in order of first appearance and values as text', async () => {
    const json = JSON.stringify(
      [
        { name: 'Ann', email: 'ann@example.com', roles: ['editor', 'viewer'], is_active: true },
        { email: 'bob@example.com', name: null, is_active: false, external_id: 42 },
      ],
      null,
      2,
    );
    const { detected, rows } = await readAll(file('people.json', `\uFEFF  ${json}`));
    expect(detected).toEqual({
      format: 'json',
      encoding: 'utf-8',
      delimiter: null,
      sheet: null,
      headers: ['name', 'email', 'roles', 'is_active', 'external_id'],
    });
    expect(rows).toEqual([
      { line: 2, values: ['Ann', 'ann@example.com', 'editor|viewer', 'true', ''] },
      { line: 3, values: ['', 'bob@example.com', '', 'false', '42'] },
    ]);
  });

  it('keeps numbers as written in the file', async () => {
    const { rows } = await readAll(
      file('numbers.json', '[{"email":"a@example.com","external_id":12345678901234567890,"n":1.50}]'),
    );
    expect(rows[0]?.values).toEqual(['a@example.com', '12345678901234567890', '1.50']);
  });

  it('reports a non-object element and a nested value on their rows and goes on', async () => {
    const json =
      '[{"email":"a@example.com"}, "just text", 7, {"email":"b@example.com","meta":{"x":1}}, {"email":"c@example.com"}]';
    const { rows } = await readAll(file('mixed.json', json));
    expect(rows.map((row) => [row.line, row.problem?.code ?? null, row.values[0]])).toEqual([
      [2, null, 'a@example.com'],
      [3, 'NOT_AN_OBJECT', ''],
      [4, 'NOT_AN_OBJECT', ''],
      [5, 'NESTED_VALUE', 'b@example.com'],
      [6, null, 'c@example.com'],
    ]);
    expect(rows[1]?.problem?.message).toBe('Item on line 3 is not an object with named fields.');
  });

  it('reads application/json holding NDJSON as NDJSON', async () => {
    const { detected, rows } = await readAll(
      file('lines.json', '{"email":"a@example.com"}\n{"email":"b@example.com"}\n'),
      {
        format: 'json',
      },
    );
    expect(detected.format).toBe('ndjson');
    expect(rows.map((row) => row.values)).toEqual([['a@example.com'], ['b@example.com']]);
  });

  it('refuses a top-level object, two arrays, a truncated array and one with no object', async () => {
    const pretty = JSON.stringify({ users: [{ email: 'a@example.com' }] }, null, 2);
    await expectRefused(file('object.json', pretty), 'MALFORMED', { format: 'json' });
    await expectRefused(
      file('two-arrays.json', '[{"email":"a@example.com"}] [{"email":"b@example.com"}]'),
      'MALFORMED',
    );
    const truncated = await expectRefused(
      file('truncated.json', '[{"email":"a@example.com"},{"email":"b@'),
      'MALFORMED',
    );
    expect(truncated.message).toBe('The JSON file is cut off after item 1.');
    const broken = await expectRefused(file('broken.json', '[{"email":"a@example.com"},{"email" "b"}]'), 'MALFORMED');
    expect(broken.message).toBe('The file is not valid JSON.');
    await expectRefused(file('scalars.json', '[1, 2, 3]'), 'NO_HEADER');
    await expectRefused(file('empty-array.json', ' [ ] '), 'EMPTY');
  });

  it('refuses more rows than the limit', async () => {
    const json = JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ email: `u${i}@example.com` })));
    await expectRefused(file('many.json', json), 'TOO_MANY_ROWS', {
      limits: { maxRows: 5, maxUncompressedBytes: 1e6 },
    });
  });

  it('refuses a huge string value before holding it', async () => {
    const path = file('huge.json', `[{"email":"${'a'.repeat(10 * 1024 * 1024)}"}]`);
    await expectRefused(path, 'CELL_TOO_LONG');
  });

  it('refuses deep nesting without a stack overflow', async () => {
    await expectRefused(file('deep.json', `[${'['.repeat(100_000)}`), 'MALFORMED');
  });
});

describe('reading NDJSON', () => {
  it('numbers rows by line, skips blank lines and reports a line that is not JSON', async () => {
    const text =
      '{"email":"a@example.com","name":"Ann"}\r\n\n{"email": oops}\n["not", "object"]\n{"email":"d@example.com"}';
    const { detected, rows } = await readAll(file('people.ndjson', text));
    expect(detected.headers).toEqual(['email', 'name']);
    expect(rows).toEqual([
      { line: 1, values: ['a@example.com', 'Ann'] },
      { line: 3, values: ['', ''], problem: { code: 'BAD_JSON', message: 'Line 3 is not valid JSON.' } },
      {
        line: 4,
        values: ['', ''],
        problem: { code: 'NOT_AN_OBJECT', message: 'Item on line 4 is not an object with named fields.' },
      },
      { line: 5, values: ['d@example.com', ''] },
    ]);
  });

  it('refuses a line longer than the record limit without holding it', async () => {
    const path = file('long.ndjson', `{"email":"${'a'.repeat(3 * 1024 * 1024)}"}\n`);
    const error = await expectRefused(path, 'LINE_TOO_LONG');
    expect(error.line).toBe(1);
  });

  it('refuses more rows than the limit', async () => {
    const text = Array.from({ length: 4 }, (_, i) => JSON.stringify({ email: `u${i}@example.com` })).join('\n');
    await expectRefused(file('many.ndjson', text), 'TOO_MANY_ROWS', {
      limits: { maxRows: 3, maxUncompressedBytes: 1e6 },
    });
  });
});
