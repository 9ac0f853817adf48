import { importsMessages } from '../../i18n/imports-messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import type { ImportNewResult } from '@app/contracts';
import {
  CREATE_ONLY_CHOICES,
  chooseFile,
  fileOf,
  IMPORT_CHOICES,
  importJob,
  jobsById,
  mockUploads,
  REFUSED,
  showOf,
  useNodeFormData,
} from './import-test-support';

const t = importsMessages;
const CSV = 'Nom;E-Mail;Abteilung\r\nZoë Müller;zoe@example.com;Vertrieb\r\n';

/** The text of the elements that describe `element` (its help and, when refused, the server's sentence). */
const accessibleDescription = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

/** What the "what we read" facts say for `term`. */
const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

const ALL_IMPORT_RIGHTS = ['users.view', 'users.create', 'users.update', 'users.setActive', 'users.restore'] as const;

function given(options: { granted?: readonly (typeof ALL_IMPORT_RIGHTS)[number][]; choices?: ImportNewResult } = {}) {
  const dry = importJob();
  const trpc = mockTrpc({
    'auth.me': ok(sessionOf(options.granted ?? ALL_IMPORT_RIGHTS)),
    'imports.new': ok(options.choices ?? IMPORT_CHOICES),
    'jobs.show': jobsById({ 21: showOf(dry), 22: showOf(importJob({ id: 22 })) }),
  });
  return { trpc, dry };
}

beforeEach(useNodeFormData);
afterEach(() => vi.unstubAllGlobals());

describe('the Import page', { timeout: 30_000 }, () => {
  it('uploads a dry run as soon as a file is chosen, then shows what the server read', async () => {
    given();
    const received = mockUploads({ status: 202, body: { job: importJob() } });
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });

    chooseFile(fileOf(CSV));

    await screen.findByRole('heading', { name: t.read.title });
    expect(received).toHaveLength(1);
    const [upload] = received;
    expect(upload?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.fields).toEqual(['file']);
    expect(upload?.fileName).toBe('people.csv');
    expect(upload?.fileText).toBe(CSV);
    expect(upload?.idempotencyKey).toBeNull();
    expect(Object.fromEntries(upload?.query ?? [])).toEqual({ mode: 'create', dryRun: 'true' });

    // The detected format, and the mapping as the server understood the headers.
    expect(fact(t.read.format)).toBe(t.formats.csv);
    expect(fact(t.read.encoding)).toBe(t.encodings['windows-1252']);
    expect(fact(t.read.delimiter)).toBe(t.delimiters[';']);
    expect(fact(t.read.rows)).toBe('60');
    expect((screen.getByLabelText(t.read.fieldFor('Nom')) as HTMLSelectElement).value).toBe('name');
    expect((screen.getByLabelText(t.read.fieldFor('E-Mail')) as HTMLSelectElement).value).toBe('email');
    expect((screen.getByLabelText(t.read.fieldFor('Abteilung')) as HTMLSelectElement).value).toBe('ignore');
    expect(screen.getByText(t.read.unknown('Abteilung'))).toBeTruthy();
    const sample = screen.getByRole('table', { name: t.read.sampleCaption });
    expect(within(sample).getByText('Zoë Müller')).toBeTruthy();
    expect(within(sample).getByRole('columnheader', { name: 'E-Mail' })).toBeTruthy();

    // The summary, and the real run offered for what would be created.
    expect(await screen.findByText(/^52 new users, 0 updated, 0 unchanged, 3 skipped, 5 with errors$/)).toBeTruthy();
    expect(screen.getByRole('button', { name: t.run.importN(52) })).toHaveProperty('disabled', false);
  });

  it('uploads a file dropped on the drop zone, a button named for what it does', async () => {
    given();
    const received = mockUploads({ status: 202, body: { job: importJob() } });
    renderApp('/users/import');
    const zone = await screen.findByRole('button', { name: (name) => name.startsWith(t.file.dropZone) });

    fireEvent.drop(zone, { dataTransfer: { files: [fileOf(CSV, 'dropped.csv')] } });

    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]?.fileName).toBe('dropped.csv');
    expect(await screen.findByRole('button', { name: (name) => name.startsWith(t.file.change) })).toBeTruthy();
  });

  it('uploads the same file again with the new mapping when a column is re-mapped', async () => {
    given();
    const received = mockUploads(
      { status: 202, body: { job: importJob() } },
      { status: 202, body: { job: importJob({ id: 22 }) } },
    );
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    chooseFile(fileOf(CSV));
    const select = await screen.findByLabelText(t.read.fieldFor('Abteilung'));

    fireEvent.change(select, { target: { value: 'external_id' } });

    await waitFor(() => expect(received).toHaveLength(2));
    expect(received[1]?.query.get('map[Abteilung]')).toBe('external_id');
    expect(received[1]?.query.get('dryRun')).toBe('true');
    expect(received[1]?.fileText).toBe(CSV);
    expect(received[1]?.idempotencyKey).toBeNull();
  });

  it('keeps the mapping on screen after a refusal, so the column can be mapped back', async () => {
    given();
    const sentence = 'The file has no e-mail column.';
    const received = mockUploads(
      { status: 202, body: { job: importJob() } },
      {
        status: 422,
        body: {
          type: '/problems/validation-failed',
          title: 'Some of the input is not valid.',
          status: 422,
          code: 'VALIDATION_FAILED',
          detail: sentence,
          errors: { file: [sentence] },
        },
      },
      { status: 202, body: { job: importJob({ id: 22 }) } },
    );
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    chooseFile(fileOf(CSV));

    fireEvent.change(await screen.findByLabelText(t.read.fieldFor('E-Mail')), { target: { value: 'ignore' } });
    expect(within(await screen.findByRole('alert')).getByText(sentence)).toBeTruthy();
    // Nothing can be imported on the strength of a dry run made for other choices.
    expect(screen.queryByRole('button', { name: t.run.importN(52) })).toBeNull();

    fireEvent.change(screen.getByLabelText(t.read.fieldFor('E-Mail')), { target: { value: 'email' } });
    await waitFor(() => expect(received).toHaveLength(3));
    expect(received[2]?.query.get('map[E-Mail]')).toBe('email');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(await screen.findByRole('button', { name: t.run.importN(52) })).toBeTruthy();
  });

  it('filters the problem lines by code, with counts, and links the full report', async () => {
    const dry = importJob({ counts: { INVALID_EMAIL: 2, EMAIL_TAKEN: 1 } });
    mockTrpc({
      'auth.me': ok(sessionOf(ALL_IMPORT_RIGHTS)),
      'imports.new': ok(IMPORT_CHOICES),
      'jobs.show': ok(
        showOf(dry, [
          { line: 3, email: 'bad@', code: 'INVALID_EMAIL', message: 'The e-mail address is not valid.' },
          { line: 5, email: 'ann@example.com', code: 'EMAIL_TAKEN', message: 'This e-mail already has an account.' },
          { line: 9, email: 'x@@y', code: 'INVALID_EMAIL', message: 'The e-mail address is not valid.' },
        ]),
      ),
    });
    mockUploads({ status: 202, body: { job: dry } });
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    chooseFile(fileOf(CSV));

    const table = await screen.findByRole('table', { name: t.summary.problemsCaption });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    const filter = screen.getByLabelText(t.summary.filter) as HTMLSelectElement;
    expect([...filter.options].map((o) => o.textContent)).toEqual([
      t.summary.allProblems(3),
      t.summary.codeOption(t.problemCode('INVALID_EMAIL'), 2),
      t.summary.codeOption(t.problemCode('EMAIL_TAKEN'), 1),
    ]);

    fireEvent.change(filter, { target: { value: 'EMAIL_TAKEN' } });

    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(within(rows[0] as HTMLElement).getByText('ann@example.com')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('5')).toBeTruthy();
    const report = screen.getByRole('link', { name: t.summary.report });
    expect(report.getAttribute('href')).toBe('http://localhost/api/jobs/21/report?format=csv');
  });

  it('says how large a file may be when the server refuses it as too large (413)', async () => {
    given();
    mockUploads({
      status: 413,
      body: {
        type: '/problems/payload-too-large',
        title: 'The request body is too large.',
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        detail: 'The file is larger than 200 MB.',
        limit: 200 * 1024 * 1024,
      },
    });
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    chooseFile(fileOf(CSV, 'huge.csv'));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(t.errors.tooLarge(200 * 1024 * 1024));
    expect(alert.textContent).toContain('at most 200 MB');
    expect(screen.queryByRole('heading', { name: t.read.title })).toBeNull();
  });

  it('shows the server’s sentence when it refuses the whole file (422)', async () => {
    given();
    const sentence = 'The file has no e-mail column: name one with map[<column>]=email.';
    mockUploads({
      status: 422,
      body: {
        type: '/problems/validation-failed',
        title: 'Some of the input is not valid.',
        status: 422,
        code: 'VALIDATION_FAILED',
        detail: sentence,
        errors: { file: [sentence] },
      },
    });
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    chooseFile(fileOf('Nom\r\nZoë\r\n'));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(t.errors.title)).toBeTruthy();
    expect(within(alert).getByText(sentence)).toBeTruthy();
  });

  it('offers the columns of a file refused for want of an e-mail column, and retries with the mapping', async () => {
    given();
    const sentence = "No column holds the e-mail addresses. The file's columns are: Nom, Courriel électronique.";
    const received = mockUploads(
      {
        status: 422,
        body: {
          type: '/problems/validation-failed',
          title: 'Some of the input is not valid.',
          status: 422,
          code: 'VALIDATION_FAILED',
          detail: sentence,
          errors: { file: [sentence] },
          file: {
            name: 'people.csv',
            bytes: 40,
            format: 'csv',
            encoding: 'utf-8',
            delimiter: ',',
            sheet: null,
            columns: [
              { header: 'Nom', field: 'name' },
              { header: 'Courriel électronique', field: null },
            ],
            unknown: ['Courriel électronique'],
            sample: [['Zoë', 'zoe@example.com']],
          },
        },
      },
      { status: 202, body: { job: importJob({ id: 23 }) } },
    );
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    chooseFile(fileOf('Nom,Courriel électronique\r\nZoë,zoe@example.com\r\n'));

    const column = await screen.findByLabelText(t.read.fieldFor('Courriel électronique'));
    expect(screen.getByText('zoe@example.com')).toBeTruthy();
    fireEvent.change(column, { target: { value: 'email' } });
    await waitFor(() => expect(received).toHaveLength(2));
    expect(received[1]?.query.get('map[Courriel électronique]')).toBe('email');
  });

  it('offers each mode and option as the server decides, the refused ones locked with its sentence', async () => {
    given({ granted: ['users.view', 'users.create'], choices: CREATE_ONLY_CHOICES });
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    // The roles come from GET /users/imports/new: grantable ones offered, the others locked with the reason.
    const manager = await screen.findByRole('checkbox', { name: 'manager' });
    expect(manager).toHaveProperty('disabled', false);
    expect(screen.getByRole('checkbox', { name: 'admin' })).toHaveProperty('disabled', true);
    expect(screen.getByText(CREATE_ONLY_CHOICES.defaultRoles[0]?.reason ?? '')).toBeTruthy();

    const create = screen.getByRole('radio', { name: t.modes.create.label });
    const upsert = screen.getByRole('radio', { name: t.modes.upsert.label });
    expect(create).toHaveProperty('checked', true);
    expect(create).toHaveProperty('disabled', false);
    expect(upsert).toHaveProperty('disabled', true);
    expect(accessibleDescription(upsert)).toContain(REFUSED.upsert.message);
    const inactive = screen.getByRole('switch', { name: t.options.inactive });
    expect(inactive).toHaveProperty('disabled', true);
    expect(accessibleDescription(inactive)).toContain(REFUSED.inactive.message);
  });

  it('follows the server, not the capability map, when the server refuses upsert that can[] would allow', async () => {
    const choices: ImportNewResult = { ...IMPORT_CHOICES, modes: { ...IMPORT_CHOICES.modes, upsert: REFUSED.upsert } };
    given({ choices });
    const received = mockUploads({ status: 202, body: { job: importJob() } });
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    const upsert = screen.getByRole('radio', { name: t.modes.upsert.label });
    await waitFor(() => expect(accessibleDescription(upsert)).toContain(REFUSED.upsert.message));
    expect(upsert).toHaveProperty('disabled', true);

    // A disabled radio cannot be picked (jsdom would tick it on a synthetic click, so none is sent).
    expect(screen.getByRole('radio', { name: t.modes.create.label })).toHaveProperty('checked', true);
    expect(screen.queryByRole('switch', { name: t.options.restore })).toBeNull();
    chooseFile(fileOf(CSV));
    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]?.query.get('mode')).toBe('create');
  });

  it('follows the server, not the capability map, when the server allows what can[] would refuse', async () => {
    given({ granted: ['users.view', 'users.create'], choices: IMPORT_CHOICES });
    const received = mockUploads({ status: 202, body: { job: importJob() } });
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    const upsert = screen.getByRole('radio', { name: t.modes.upsert.label });
    await waitFor(() => expect(upsert).toHaveProperty('disabled', false));

    fireEvent.click(upsert);
    fireEvent.click(await screen.findByRole('switch', { name: t.options.restore }));
    fireEvent.click(screen.getByRole('switch', { name: t.options.inactive }));
    chooseFile(fileOf(CSV));

    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]?.query.get('mode')).toBe('upsert');
    expect(received[0]?.query.get('restore')).toBe('true');
    expect(received[0]?.query.get('activate')).toBe('false');
  });

  it('says the options could not be loaded and offers none when the server does not answer them', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(ALL_IMPORT_RIGHTS)),
      'imports.new': fail({ message: 'Something went wrong.', code: 'INTERNAL', httpStatus: 500 }),
      'jobs.show': jobsById({ 21: showOf(importJob()) }),
    });
    const received = mockUploads({ status: 202, body: { job: importJob() } });
    renderApp('/users/import');
    expect(await screen.findByText(t.options.choicesUnavailable)).toBeTruthy();
    expect(screen.queryByRole('group', { name: t.options.mode })).toBeNull();
    expect(screen.queryByRole('group', { name: t.options.defaultRoles })).toBeNull();
    expect(screen.queryByRole('switch', { name: t.options.inactive })).toBeNull();

    chooseFile(fileOf(CSV));
    await waitFor(() => expect(received).toHaveLength(1));
    expect(Object.fromEntries(received[0]?.query ?? [])).toEqual({ mode: 'create', dryRun: 'true' });
  });

  it('sends the options the user chose, restore only in upsert mode', async () => {
    given();
    const received = mockUploads({ status: 202, body: { job: importJob() } });
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    expect(screen.queryByRole('switch', { name: t.options.restore })).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: t.modes.upsert.label }));
    fireEvent.click(await screen.findByRole('switch', { name: t.options.restore }));
    fireEvent.click(screen.getByRole('switch', { name: t.options.inactive }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'manager' }));
    fireEvent.change(screen.getByLabelText(t.options.delimiter), { target: { value: '\t' } });
    chooseFile(fileOf(CSV));

    await waitFor(() => expect(received).toHaveLength(1));
    const query = received[0]?.query;
    expect(query?.get('mode')).toBe('upsert');
    expect(query?.get('restore')).toBe('true');
    expect(query?.get('activate')).toBe('false');
    expect(query?.getAll('defaultRoles[]')).toEqual(['manager']);
    expect(query?.get('delimiter')).toBe('tab');
  });
});
