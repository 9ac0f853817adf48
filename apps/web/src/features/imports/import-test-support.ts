import { importsMessages } from '../../i18n/imports-messages';
import { File as NodeFile } from 'node:buffer';
import { attributeField } from '../../test/attribute-fixtures';
import type { ImportNewResult, ImportSummary, JobShow, JobWithSubmitter } from '@app/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { HttpResponse, http, type JsonBodyType } from 'msw';
import { vi } from 'vitest';
import { jobOf, ownJobActions } from '../../test/job-fixtures';
import { server } from '../../test/msw';
import { fail, ok, type TrpcResolver } from '../../test/trpc-mock';

/**
 * jsdom's File and FormData are its own, and Node's fetch (which MSW turns an XMLHttpRequest
 * into) cannot serialise them: the file would arrive as the text "[object File]". Node's own
 * FormData and File make the multipart body the server would get from a browser.
 */
export async function useNodeFormData() {
  const NodeFormData = (await new Response(new URLSearchParams('a=1')).formData()).constructor as typeof FormData;
  vi.stubGlobal('FormData', NodeFormData);
}

export const fileOf = (text: string, name = 'people.csv', type = 'text/csv'): File =>
  new NodeFile([text], name, { type }) as unknown as File;

/** Chooses `file` with the page's file input, as the browser's picker would. */
export function chooseFile(file: File) {
  fireEvent.change(screen.getByLabelText(importsMessages.file.dropZone, { selector: 'input' }), {
    target: { files: [file] },
  });
}

/** What the server got in one upload. */
export interface ReceivedUpload {
  query: URLSearchParams;
  fields: string[];
  fileName: string | null;
  fileText: string | null;
  idempotencyKey: string | null;
  contentType: string | null;
}

type UploadReply = { status: number; body: JsonBodyType } | 'network-error';

/**
 * Answers `POST /api/users/imports` from a queue of replies (the last one repeats) and records
 * each request as the server would read it: query string, multipart fields, headers.
 */
export function mockUploads(...replies: UploadReply[]) {
  const received: ReceivedUpload[] = [];
  server.use(
    http.post('*/api/users/imports', async ({ request }) => {
      const form = await request.formData();
      // Node's File, not jsdom's Blob: told apart by what it can do.
      const entry = form.get('file');
      const file = typeof entry === 'object' && entry !== null && typeof entry.text === 'function' ? entry : null;
      received.push({
        query: new URL(request.url).searchParams,
        fields: [...form.keys()],
        fileName: file ? file.name : null,
        fileText: file ? await file.text() : null,
        idempotencyKey: request.headers.get('idempotency-key'),
        contentType: request.headers.get('content-type'),
      });
      const reply = replies[Math.min(received.length - 1, replies.length - 1)] ?? 'network-error';
      if (reply === 'network-error') return HttpResponse.error();
      return HttpResponse.json(reply.body, {
        status: reply.status,
        headers: reply.status >= 400 ? { 'content-type': 'application/problem+json' } : {},
      });
    }),
  );
  return received;
}

export const SUMMARY: ImportSummary = {
  file: {
    name: 'people.csv',
    bytes: 2048,
    format: 'csv',
    encoding: 'windows-1252',
    delimiter: ';',
    sheet: null,
    rows: 60,
    columns: [
      { header: 'Nom', field: 'name' },
      { header: 'E-Mail', field: 'email' },
      { header: 'Abteilung', field: null },
    ],
    unknown: ['Abteilung'],
    sample: [
      ['Zoë Müller', 'zoe@example.com', 'Vertrieb'],
      ['André Dupont', 'andre@example.com', 'Technik'],
    ],
  },
  mode: 'create',
  activate: true,
  restore: false,
  defaultRoles: [],
  outcomes: { create: 52, update: 0, unchanged: 0, skip: 3, error: 5 },
  fields: {},
};

/** An import job (a dry run, finished, unless told otherwise). */
export function importJob(
  overrides: Partial<Omit<JobWithSubmitter, 'progress'>> & { progress?: Partial<JobWithSubmitter['progress']> } = {},
): JobWithSubmitter {
  return jobOf({
    id: 21,
    kind: 'import',
    operation: 'create',
    active: null,
    dryRun: true,
    status: 'succeeded',
    progress: { total: 60, processed: 60, changed: 52, skipped: 3, failed: 5 },
    finished_at: '2026-11-26T09:01:00.000Z',
    import: SUMMARY,
    ...overrides,
  });
}

export const showOf = (job: JobWithSubmitter, problems: JobShow['problems'] = []): JobShow => ({
  item: { ...job, actions: ownJobActions(job) },
  examples: {},
  problems,
  people: { allowed: true },
});

/**
 * A `jobs.show` resolver answering each job id from a table (updatable mid-test). Jobs a test
 * started stay watched by the header for the rest of the file: those it does not know are gone.
 */
export function jobsById(shows: Record<number, JobShow>): TrpcResolver {
  return (input: unknown) => {
    const show = shows[(input as { id: number }).id];
    return show ? ok(show) : fail({ message: 'The record was not found.', code: 'NOT_FOUND', httpStatus: 404 });
  };
}

const ALLOWED = { allowed: true };
const refused = (permission: string, what: string) => ({
  allowed: false,
  code: 'FORBIDDEN' as const,
  message: `You need the ${permission} permission to ${what}.`,
});

const DEFAULT_ROLES: ImportNewResult['defaultRoles'] = [
  { id: 1, name: 'admin', assignable: false, reason: 'It carries users.delete, which you lack.' },
  { id: 2, name: 'manager', assignable: true },
  { id: 3, name: 'viewer', assignable: true },
];

/** GET /users/imports/new for a caller who may choose every mode and option, and every role but admin. */
export const IMPORT_CHOICES: ImportNewResult = {
  modes: { create: ALLOWED, upsert: ALLOWED },
  options: { inactive: ALLOWED, restore: ALLOWED },
  defaultRoles: DEFAULT_ROLES,
  attributes: [attributeField({ key: 'department', label: 'Department', type: 'enum', values: ['Sales', 'Support'] })],
};

/** The server's sentences refusing what users.create alone does not cover (domain/imports.rules.ts). */
export const REFUSED = {
  upsert: refused('users.update', 'update existing users from a file (upsert)'),
  inactive: refused('users.setActive', 'import users as inactive'),
  restore: refused('users.restore', 'restore deleted users from a file'),
};

/** GET /users/imports/new for a caller holding users.create and nothing else that an import asks. */
export const CREATE_ONLY_CHOICES: ImportNewResult = {
  modes: { create: ALLOWED, upsert: REFUSED.upsert },
  options: { inactive: REFUSED.inactive, restore: REFUSED.restore },
  defaultRoles: DEFAULT_ROLES,
  attributes: [],
};
