import {
  type ImportDelimiter,
  type ImportEncoding,
  type ImportTarget,
  type ImportFilePreview,
  type ImportMode,
  type Job,
  JobAnswerSchema,
  ProblemSchema,
} from '@app/contracts';
import { apiUrl } from '../../lib/api-url';

/** What the page asks the server to do with the file: `ImportOptionsSchema`, as the form holds it. */
export interface ImportChoices {
  mode: ImportMode;
  defaultRoles: string[];
  activate: boolean;
  restore: boolean;
  /** Empty: let the server detect it. */
  encoding: ImportEncoding | '';
  delimiter: ImportDelimiter | '';
  sheet: string;
  /** Only the columns the user re-mapped; the server maps the rest from their headers. */
  map: Record<string, ImportTarget | 'ignore'>;
}

export const DEFAULT_CHOICES: ImportChoices = {
  mode: 'create',
  defaultRoles: [],
  activate: true,
  restore: false,
  encoding: '',
  delimiter: '',
  sheet: '',
  map: {},
};

/**
 * The options as the query string `POST /api/users/imports` reads (bracket notation). Written
 * with URLSearchParams, not `stringifyQuery`, because a header is the user's text and its key
 * (`map[<header>]`) must be percent-encoded too. Defaults the server assumes are left out.
 */
export function importQuery(choices: ImportChoices, dryRun: boolean): string {
  const params = new URLSearchParams();
  params.set('mode', choices.mode);
  params.set('dryRun', String(dryRun));
  for (const role of choices.defaultRoles) params.append('defaultRoles[]', role);
  if (!choices.activate) params.set('activate', 'false');
  if (choices.restore && choices.mode === 'upsert') params.set('restore', 'true');
  if (choices.encoding) params.set('encoding', choices.encoding);
  if (choices.delimiter) params.set('delimiter', choices.delimiter === '\t' ? 'tab' : choices.delimiter);
  if (choices.sheet.trim()) params.set('sheet', choices.sheet.trim());
  for (const [header, field] of Object.entries(choices.map)) params.set(`map[${header}]`, field);
  return params.toString();
}

/** A refusal of the upload: the problem's code and sentence, the per-field errors, a 413's limit. */
export class ImportUploadError extends Error {
  override readonly name = 'ImportUploadError';
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly errors: Record<string, string[]> = {},
    readonly limit: number | null = null,
    /** How a file refused whole was read (its columns): the page offers to map them. */
    readonly file: ImportFilePreview | null = null,
  ) {
    super(message);
  }
}

/** The transport failed (offline, connection reset): no answer to show, worth another try. */
export class ImportNetworkError extends Error {
  override readonly name = 'ImportNetworkError';
}

function refusalOf(status: number, text: string): ImportUploadError {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // A proxy's HTML error page: no problem to read, the status says enough.
  }
  const problem = ProblemSchema.safeParse(body);
  if (!problem.success) return new ImportUploadError(status, null, '');
  return new ImportUploadError(
    status,
    problem.data.code,
    problem.data.detail,
    problem.data.errors ?? {},
    problem.data.limit ?? null,
    problem.data.file ?? null,
  );
}

export interface UploadRequest {
  file: File;
  choices: ImportChoices;
  dryRun: boolean;
  /** Sent on a real run only, so that a retried click returns the first job instead of a second. */
  idempotencyKey?: string;
  /** Bytes sent so far, of the whole multipart body. */
  onProgress?: (loaded: number, total: number) => void;
  /** The upload is over; the server is reading the file (a large one takes a while). */
  onUploaded?: () => void;
  signal?: AbortSignal;
}

/**
 * Sends the file as `multipart/form-data` (field `file`, so the server learns its name) with the
 * session cookie (a same-origin XMLHttpRequest carries it). XMLHttpRequest, not fetch: only it
 * reports upload progress in every browser.
 */
export function uploadImport(request: UploadRequest): Promise<Job> {
  const { file, choices, dryRun, idempotencyKey, onProgress, onUploaded, signal } = request;
  return new Promise<Job>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(`/api/users/imports?${importQuery(choices, dryRun)}`));
    xhr.setRequestHeader('Accept', 'application/json');
    if (idempotencyKey) xhr.setRequestHeader('Idempotency-Key', idempotencyKey);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded, event.total);
    });
    xhr.upload.addEventListener('load', () => onUploaded?.());
    xhr.addEventListener('load', () => {
      if (xhr.status === 202 || xhr.status === 200) {
        const answer = JobAnswerSchema.safeParse(safeJson(xhr.responseText));
        if (answer.success) resolve(answer.data.job);
        else reject(new ImportUploadError(xhr.status, null, ''));
      } else {
        reject(refusalOf(xhr.status, xhr.responseText));
      }
    });
    xhr.addEventListener('error', () => reject(new ImportNetworkError('network')));
    xhr.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const body = new FormData();
    body.append('file', file, file.name);
    xhr.send(body);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
