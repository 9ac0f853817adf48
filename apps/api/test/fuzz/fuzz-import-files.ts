import {
  cellPastExcel,
  longInlineString,
  longSharedString,
  MULTIPART_WITHOUT_BOUNDARY,
  rowPastExcel,
  rowsNumbered,
  sharedStringsBomb,
  XLSX_TYPE,
  zipOf,
} from '../support/hostile-imports.js';

/**
 * The hostile-file corpus of POST /users/imports: what an independent probe got a 500 (or an
 * answer that differed by database engine, or 2.6 GB of memory) for, sent by the REST fuzzer
 * every run, each with the answer it must get. The world the fuzzer runs has IMPORT_MAX_ROWS
 * below 8 192, so its shared strings limit is the floor of 65 536, which the bombs pass.
 */
export interface HostileImport {
  name: string;
  type: string;
  body: string | Buffer;
  /** The statuses an administrator must get for it. */
  expected: number[];
}

export const FUZZ_IMPORT_ENV = { IMPORT_MAX_ROWS: '1000' };

export async function hostileImports(): Promise<HostileImport[]> {
  const xlsx = (name: string, body: Buffer): HostileImport => ({ name, type: XLSX_TYPE, body, expected: [422] });
  return [
    { name: 'multipart without a boundary', ...MULTIPART_WITHOUT_BOUNDARY, expected: [400] },
    {
      name: 'multipart with an empty boundary',
      type: 'multipart/form-data; boundary=',
      body: MULTIPART_WITHOUT_BOUNDARY.body,
      expected: [400],
    },
    xlsx('a shared string past 32 767 characters', await longSharedString(40_000)),
    xlsx('an inline string past 32 767 characters', await longInlineString(40_000)),
    xlsx('row 99 999 999 999', await rowPastExcel()),
    xlsx('cell A99999999999', await cellPastExcel()),
    xlsx('row 2 twice', await rowsNumbered('2', '2')),
    xlsx('rows out of order', await rowsNumbered('3', '2')),
    xlsx('a row numbered "x"', await rowsNumbered('x')),
    xlsx('100 000 shared strings', await zipOf(sharedStringsBomb(100_000))),
    xlsx('100 000 shared strings, declared', await zipOf(sharedStringsBomb(100_000, { declared: true }))),
  ];
}
