import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { openImportFile } from '../../src/imports/reading/index.js';
import { descriptorsOn, expectRefused, LIMITS, readAll, scratch } from './import-support.js';

/** Descriptors this process has open, to see that a reader let go of its file. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const file = scratch();

describe('reading CSV: delimiters', () => {
  it.each([
    [',', 'comma'],
    [';', 'semicolon'],
    ['\t', 'tab'],
    ['|', 'pipe'],
  ] as const)('detects the %j delimiter (%s)', async (delimiter, label) => {
    const text = [
      ['name', 'email', 'roles'],
      ['"Ann ""Nancy"" Lee"', 'ann@example.com', 'a'],
      ['"Quoted, with ; and | and \t inside"', 'q@example.com', 'b'],
      ['Bob', 'bob@example.com', ''],
    ]
      .map((row) => row.join(delimiter))
      .join('\n');
    const { detected, rows } = await readAll(file(`${label}.csv`, text));
    expect(detected.delimiter).toBe(delimiter);
    expect(detected.headers).toEqual(['name', 'email', 'roles']);
    expect(rows.map((row) => row.values[1])).toEqual(['ann@example.com', 'q@example.com', 'bob@example.com']);
    expect(rows[0]?.values[0]).toBe('Ann "Nancy" Lee');
    expect(rows[1]?.values[0]).toBe('Quoted, with ; and | and \t inside');
  });

  it('prefers the delimiter that splits every line alike over one that only appears often', async () => {
    const text = 'Name;Email\nSmith, John;john@example.com\nDoe, Jane, Jr;jane@example.com\n';
    const { detected, rows } = await readAll(file('consistent.csv', text));
    expect(detected.delimiter).toBe(';');
    expect(rows[1]?.values).toEqual(['Doe, Jane, Jr', 'jane@example.com']);
  });

  it('uses a given delimiter over the detected one', async () => {
    const { detected, rows } = await readAll(file('given.csv', 'a|b;c\n1|2;3\n'), { delimiter: '|' });
    expect(detected.delimiter).toBe('|');
    expect(rows[0]?.values).toEqual(['1', '2;3']);
  });

  it('reads a one-column file', async () => {
    const { detected, rows } = await readAll(file('one.csv', 'email\na@example.com\nb@example.com\n'));
    expect(detected).toMatchObject({ delimiter: ',', headers: ['email'] });
    expect(rows.map((row) => row.values)).toEqual([['a@example.com'], ['b@example.com']]);
  });
});

describe('reading CSV: encodings', () => {
  const text = 'name,email\nRenée Çelik,renee@example.com\nŁukasz 😀,lukasz@example.com\n';

  it('decodes UTF-16 LE with a BOM', async () => {
    const path = file('utf16le.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const { detected, rows } = await readAll(path);
    expect(detected.encoding).toBe('utf-16le');
    expect(rows.map((row) => row.values[0])).toEqual(['Renée Çelik', 'Łukasz 😀']);
  });

  it('decodes UTF-16 BE with a BOM', async () => {
    const path = file('utf16be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    const { detected, rows } = await readAll(path);
    expect(detected.encoding).toBe('utf-16be');
    expect(rows[1]?.values[0]).toBe('Łukasz 😀');
  });

  it('reads UTF-8 without a BOM as UTF-8, even when the first accent comes late', async () => {
    const filler = Array.from({ length: 3000 }, (_, i) => `Plain ${i},p${i}@example.com`).join('\n');
    const { detected, rows } = await readAll(file('late-accent.csv', `name,email\n${filler}\nZoë,zoe@example.com\n`));
    expect(detected.encoding).toBe('utf-8');
    expect(rows.at(-1)?.values[0]).toBe('Zoë');
  });

  it('reads bytes that are not UTF-8 as Windows-1252 (curly quotes and the euro sign included)', async () => {
    const path = file('cp1252.csv', iconv.encode('name,note\nJosé,“5 €”\n', 'windows-1252'));
    const { detected, rows } = await readAll(path);
    expect(detected.encoding).toBe('windows-1252');
    expect(rows[0]?.values).toEqual(['José', '“5 €”']);
  });

  it('uses a forced encoding', async () => {
    // ISO-8859-1 bytes of "Grüße": valid in any 8-bit encoding; forced to ISO-8859-1 it reads right.
    const path = file('latin1.csv', iconv.encode('name\nGrüße\n', 'iso-8859-1'));
    const { detected, rows } = await readAll(path, { encoding: 'iso-8859-1' });
    expect(detected.encoding).toBe('iso-8859-1');
    expect(rows[0]?.values).toEqual(['Grüße']);
    const forcedUtf16 = await readAll(file('forced16.csv', Buffer.from('name\nÅsa\n', 'utf16le')), {
      encoding: 'utf-16le',
    });
    expect(forcedUtf16.rows[0]?.values).toEqual(['Åsa']);
  });

  it('refuses a file forced to UTF-8 that is not UTF-8', async () => {
    await expectRefused(file('not-utf8.csv', iconv.encode('name\nJosé\n', 'windows-1252')), 'BAD_ENCODING', {
      encoding: 'utf-8',
    });
  });
});

describe('reading CSV: records and lines', () => {
  it('gives the line where a record starts, across quoted CRLF and LF newlines and blank lines', async () => {
    const text =
      'name,email\r\n"Two\r\nlines",a@example.com\r\n\r\n"Three\n\nlines",b@example.com\r\nLast,c@example.com';
    const { rows } = await readAll(file('lines.csv', text));
    expect(rows.map((row) => [row.line, row.values[0]])).toEqual([
      [2, 'Two\r\nlines'],
      [5, 'Three\n\nlines'],
      [8, 'Last'],
    ]);
  });

  it('trims cells, pads short rows, skips rows with no value and flags values past the header', async () => {
    const text = 'name , email\n  Ann  ,ann@example.com \n,\nBob\nCid,cid@example.com,extra\n';
    const { detected, rows } = await readAll(file('shape.csv', text));
    expect(detected.headers).toEqual(['name', 'email']);
    expect(rows).toEqual([
      { line: 2, values: ['Ann', 'ann@example.com'] },
      { line: 4, values: ['Bob', ''] },
      {
        line: 5,
        values: ['Cid', 'cid@example.com'],
        problem: { code: 'EXTRA_FIELDS', message: 'Line 5 has more values than the header has columns.' },
      },
    ]);
  });

  it('keeps a formula-looking cell as the text it is', async () => {
    const { rows } = await readAll(file('formula.csv', 'name,email\n=1+1,a@example.com\n+SUM(A1),b@example.com\n'));
    expect(rows.map((row) => row.values[0])).toEqual(['=1+1', '+SUM(A1)']);
  });
});

describe('reading CSV: stopping early', () => {
  it('closes the file when a caller stops after the first rows or reads none', async () => {
    const path = file(
      'long.csv',
      `email\n${Array.from({ length: 50_000 }, (_, i) => `u${i}@example.com`).join('\n')}\n`,
    );
    const first = await openImportFile(path, { limits: LIMITS });
    const preview = [];
    for await (const row of first.rows) {
      preview.push(row);
      if (preview.length === 3) break;
    }
    expect(preview.map((row) => row.line)).toEqual([2, 3, 4]);
    const second = await openImportFile(path, { limits: LIMITS });
    expect(second.detected.headers).toEqual(['email']);
    await second.rows.return();
    await settle();
    expect(descriptorsOn(path)).toBe(0);
  });
});

describe('reading CSV: whole-file refusals', () => {
  it('refuses an empty file and a file of blank lines', async () => {
    await expectRefused(file('empty.csv', ''), 'EMPTY');
    await expectRefused(file('blank.csv', '\r\n\n  \n'), 'EMPTY');
    await expectRefused(file('bom-only.csv', '\uFEFF'), 'EMPTY');
  });

  it('refuses more rows than the limit', async () => {
    const text = `email\n${Array.from({ length: 11 }, (_, i) => `u${i}@example.com`).join('\n')}\n`;
    const error = await expectRefused(file('many.csv', text), 'TOO_MANY_ROWS', {
      limits: { maxRows: 10, maxUncompressedBytes: 1e6 },
    });
    expect(error.message).toBe('The file has more than 10 rows; split it into smaller files.');
    const exactly = await readAll(file('ten.csv', text.split('\n').slice(0, 11).join('\n')), {
      limits: { maxRows: 10, maxUncompressedBytes: 1e6 },
    });
    expect(exactly.rows).toHaveLength(10);
  });

  it('refuses a quote inside an unquoted cell, RFC 4180 being the rule', async () => {
    const error = await expectRefused(file('inner.csv', 'name,email\nAnn "Nancy" Lee,a@example.com\n'), 'MALFORMED');
    expect(error.line).toBe(2);
  });

  it('refuses a stray quote with the line it is on', async () => {
    const error = await expectRefused(
      file('stray.csv', 'name,email\nok,a@example.com\n"Bad"x,b@example.com\n'),
      'MALFORMED',
    );
    expect(error.line).toBe(3);
    expect(error.message).toContain('line 3');
  });

  it('refuses a quote that is never closed', async () => {
    const error = await expectRefused(
      file('unclosed.csv', 'name,email\nok,a@example.com\n"never closed,b\n'),
      'MALFORMED',
    );
    expect(error.message).toContain('line 3');
  });

  it('refuses a 50 MB single line without holding it', async () => {
    const path = file('one-line.csv', Buffer.alloc(50 * 1024 * 1024, 'a'));
    const before = process.memoryUsage().rss;
    await expectRefused(path, 'LINE_TOO_LONG');
    expect(process.memoryUsage().rss - before).toBeLessThan(40 * 1024 * 1024);
  });

  it('refuses a cell longer than maxCellChars', async () => {
    const error = await expectRefused(
      file('long-cell.csv', `name,email\n${'x'.repeat(200)},a@example.com\n`),
      'CELL_TOO_LONG',
      {
        limits: { maxRows: 10, maxUncompressedBytes: 1e6, maxCellChars: 100 },
      },
    );
    expect(error.line).toBe(2);
  });

  it('refuses binary garbage and an old .xls as files it cannot read', async () => {
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
    await expectRefused(file('garbage.csv', garbage), 'UNREADABLE');
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    await expectRefused(file('old.xls', ole), 'UNSUPPORTED_FORMAT');
  });

  it('refuses a missing file as unreadable', async () => {
    await expectRefused('/nonexistent/import.csv', 'UNREADABLE');
  });
});
