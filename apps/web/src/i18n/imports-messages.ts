import type { ImportDelimiter, ImportEncoding, ImportField, ImportFormat, ImportMode } from '@app/contracts';
import { formatCount } from './list-strings';

const FIELDS: Record<ImportField, string> = {
  id: 'ID',
  name: 'Name',
  email: 'E-mail',
  roles: 'Roles',
  is_active: 'Active',
  password: 'Password',
  password_hash: 'Password hash',
  external_id: 'External id',
};

const FORMATS: Record<ImportFormat, string> = {
  csv: 'CSV',
  xlsx: 'Excel workbook (XLSX)',
  json: 'JSON',
  ndjson: 'NDJSON (one JSON object per line)',
};

const ENCODINGS: Record<ImportEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 (little-endian)',
  'utf-16be': 'UTF-16 (big-endian)',
  'windows-1252': 'Windows-1252 (Western European)',
  'iso-8859-1': 'ISO-8859-1 (Latin-1)',
};

const DELIMITERS: Record<ImportDelimiter, string> = {
  ',': 'Comma ( , )',
  ';': 'Semicolon ( ; )',
  '\t': 'Tab',
  '|': 'Vertical bar ( | )',
};

const MODES: Record<ImportMode, { label: string; description: string }> = {
  create: { label: 'Add new users only', description: 'Lines whose e-mail already has an account are skipped.' },
  upsert: {
    label: 'Add new users and update existing ones',
    description: 'Lines naming an existing account update it: by its ID when the line has one, else by its e-mail.',
  },
};

/** What each problem code means, for the filter (each line also carries the server's own sentence). */
const PROBLEM_CODES: Record<string, string> = {
  EMAIL_TAKEN: 'E-mail already has an account',
  DUPLICATE_IN_FILE: 'E-mail or ID repeated in the file',
  USER_DELETED: 'User is deleted',
  INVALID_ROW: 'Unreadable line',
  INVALID_EMAIL: 'Invalid e-mail',
  INVALID_NAME: 'Invalid name',
  INVALID_PASSWORD: 'Invalid password',
  BAD_PASSWORD_HASH: 'Unsupported password hash',
  BAD_ACTIVE: 'Unreadable active value',
  UNKNOWN_ROLE: 'Unknown role',
  ROLE_NOT_GRANTABLE: 'Role you may not grant',
  ID_NOT_FOUND: 'No user with this ID',
  OUTRANKED: 'User holds permissions you lack',
  FORBIDDEN: 'Not allowed by the record policy',
  SELF_DEACTIVATION: 'Would deactivate your own account',
  LAST_ADMIN: 'Would leave no active administrator',
  INTERNAL: 'Failed unexpectedly',
};

const users = (count: number) => `${formatCount(count)} ${count === 1 ? 'user' : 'users'}`;
const MB = 1024 * 1024;

/** Importing users from a file: the Import page and the users list's link to it. */
export const importsMessages = {
  title: 'Import users',
  subtitle: 'Bring people in from a CSV, Excel or JSON file. Nothing changes until you confirm the import.',
  back: 'Users',
  fields: FIELDS,
  formats: FORMATS,
  encodings: ENCODINGS,
  delimiters: DELIMITERS,
  modes: MODES,
  problemCode: (code: string) => PROBLEM_CODES[code] ?? code,
  file: {
    title: '1. Choose a file',
    description: 'CSV, TSV, Excel (.xlsx), JSON or NDJSON, with a header row naming the columns.',
    dropZone: 'Choose a file to import',
    dropHint: 'Drop a file here, or press to browse',
    accepted: 'CSV, TSV, TXT, XLSX, JSON, NDJSON',
    chosen: (name: string, size: string) => `${name} · ${size}`,
    change: 'Choose another file',
    size: (bytes: number) =>
      bytes < 1024
        ? `${formatCount(bytes)} B`
        : bytes < MB
          ? `${formatCount(Math.round(bytes / 1024))} KB`
          : `${(bytes / MB).toLocaleString('en', { maximumFractionDigits: 1 })} MB`,
  },
  options: {
    title: 'Options',
    mode: 'What to do with the file',
    defaultRoles: 'Default roles',
    defaultRolesDescription: 'Given to each new user whose line names no role.',
    noRoles: 'There are no roles to offer.',
    choicesUnavailable:
      'The options could not be loaded: the file is imported with the defaults (new users only, active, the roles their line names).',
    roleLocked: 'You cannot grant this role.',
    optionLocked: 'You cannot choose this.',
    inactive: 'Create new users inactive',
    inactiveDescription: 'They cannot sign in until someone activates them. A line’s own active column wins.',
    restore: 'Restore deleted users the file names',
    restoreDescription: 'Otherwise a line naming a deleted user is skipped.',
    advanced: 'Advanced: how to read the file',
    encoding: 'Encoding',
    delimiter: 'Delimiter',
    sheet: 'Sheet',
    sheetDescription: 'For a workbook: the sheet’s name. Empty reads the first sheet.',
    detect: 'Detect automatically',
  },
  upload: {
    sending: 'Uploading the file…',
    uploading: (percent: number) => `Uploading the file… ${percent}%`,
    uploadLabel: 'Upload',
    reading: 'Reading the file on the server…',
    checking: 'Checking every line (nothing changes yet)…',
    checked: (creates: number, updates: number) =>
      `Check done: ${users(creates)} would be added, ${users(updates)} updated.`,
  },
  errors: {
    title: 'The file could not be read',
    tooLarge: (limitBytes: number | null) =>
      limitBytes === null
        ? 'The file is larger than the server accepts.'
        : `The file is larger than the server accepts (at most ${formatCount(Math.floor(limitBytes / MB))} MB).`,
    unsupported: 'This kind of file cannot be imported. Use CSV, TSV, XLSX, JSON or NDJSON.',
    checkFailed: 'The check did not finish.',
  },
  read: {
    title: '2. What we read',
    description: 'Check that the columns fill the right fields; change any that do not.',
    format: 'Format',
    encoding: 'Encoding',
    delimiter: 'Delimiter',
    sheet: 'Sheet',
    rows: 'Rows',
    none: '—',
    mappingCaption: 'Columns of your file and the fields they fill',
    column: 'Column in your file',
    field: 'Field',
    fieldFor: (header: string) => `Field for the column “${header}”`,
    ignore: 'Don’t import',
    attributes: 'Attributes',
    unknown: (headers: string) => `Not imported (no matching field): ${headers}.`,
    sampleTitle: 'First rows',
    sampleCaption: 'The first rows of the file, as read',
  },
  summary: {
    title: '3. What would happen',
    description: 'A dry run: every line was checked and nothing was changed.',
    created: (count: number) => `${formatCount(count)} new ${count === 1 ? 'user' : 'users'}`,
    updated: (count: number) => `${formatCount(count)} updated`,
    fieldChanges: (parts: string) => ` (${parts})`,
    fieldCount: (field: string, count: number) => `${field} ×${formatCount(count)}`,
    unchanged: (count: number) => `${formatCount(count)} unchanged`,
    skipped: (count: number) => `${formatCount(count)} skipped`,
    errors: (count: number) => `${formatCount(count)} with errors`,
    problemsTitle: 'Lines with a problem',
    problemsCaption: 'Lines of the file that would not be imported, and why',
    problemsShown: (shown: number, total: number) =>
      `Showing the first ${formatCount(shown)} of ${formatCount(total)}; the report lists every one.`,
    filter: 'Show',
    allProblems: (count: number) => `All problems (${formatCount(count)})`,
    codeOption: (label: string, count: number) => `${label} (${formatCount(count)})`,
    line: 'Line',
    lineNumber: (line: number) => `Line ${formatCount(line)}`,
    email: 'E-mail',
    code: 'Problem',
    message: 'Details',
    noProblems: 'Every line can be imported.',
    noneOfCode: 'None of the lines shown have this problem.',
    report: 'Download the full report (CSV)',
  },
  run: {
    title: '4. Import',
    importN: (count: number) => `Import ${users(count)}`,
    nothing: 'Nothing would be added or updated, so there is nothing to import.',
    starting: 'Starting the import…',
    running: 'Importing… You can leave this page; the import carries on in the background.',
    done: 'Import finished',
    failed: 'The import failed',
    cancelled: 'The import was cancelled',
    result: (created: number, updated: number) => `${users(created)} added, ${formatCount(updated)} updated.`,
    viewJob: 'Open the job',
    viewUsers: 'Go to the users list',
    startOver: 'Import another file',
  },
};
