import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { importsMessages } from '../../i18n/imports-messages';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import {
  chooseFile,
  fileOf,
  IMPORT_CHOICES,
  importJob,
  jobsById,
  mockUploads,
  SUMMARY,
  showOf,
  useNodeFormData,
} from './import-test-support';

// The import page and custom attributes (issue 38): a column can fill an attribute the caller may
// see (GET /users/imports/new names them), and the dry run names an attribute's column by its label.
const t = importsMessages;
const CSV = 'Nom;E-Mail;Abteilung\r\nZoë Müller;zoe@example.com;Vertrieb\r\n';
const WITH_DEPARTMENT = {
  ...SUMMARY,
  mode: 'upsert' as const,
  outcomes: { ...SUMMARY.outcomes, update: 2 },
  fields: { name: 1, 'attributes.department': 2 },
};

beforeEach(useNodeFormData);
afterEach(() => vi.unstubAllGlobals());

describe('the Import page: custom attributes', { timeout: 30_000 }, () => {
  it('offers the attributes beside the user fields, and sends attributes.<key> as the mapping', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.create', 'users.update'])),
      'imports.new': ok(IMPORT_CHOICES),
      'jobs.show': jobsById({ 21: showOf(importJob()), 22: showOf(importJob({ id: 22, import: WITH_DEPARTMENT })) }),
    });
    const received = mockUploads(
      { status: 202, body: { job: importJob() } },
      { status: 202, body: { job: importJob({ id: 22, import: WITH_DEPARTMENT }) } },
    );
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    chooseFile(fileOf(CSV));
    const select = (await screen.findByLabelText(t.read.fieldFor('Abteilung'))) as HTMLSelectElement;
    const group = await waitFor(() => {
      const found = select.querySelector(`optgroup[label="${t.read.attributes}"]`);
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    const option = within(group).getByRole('option', { name: 'Department' }) as HTMLOptionElement;
    expect(option.value).toBe('attributes.department');

    fireEvent.change(select, { target: { value: 'attributes.department' } });

    await waitFor(() => expect(received).toHaveLength(2));
    expect(received[1]?.query.get('map[Abteilung]')).toBe('attributes.department');
    expect(await screen.findByText(/2 updated \(Name ×1, Department ×2\)/)).toBeTruthy();
  });

  it('shows a column the server read as an attribute by its label', async () => {
    const read = { ...SUMMARY.file, columns: SUMMARY.file.columns.map((c) => ({ ...c })) };
    const last = read.columns.at(-1);
    if (last) last.field = 'attributes.department';
    const job = importJob({ import: { ...SUMMARY, file: { ...read, unknown: [] } } });
    mockTrpc({
      'auth.me': ok(sessionOf(['users.view', 'users.create'])),
      'imports.new': ok(IMPORT_CHOICES),
      'jobs.show': jobsById({ 21: showOf(job) }),
    });
    mockUploads({ status: 202, body: { job } });
    renderApp('/users/import');
    await screen.findByRole('heading', { level: 1, name: t.title });
    chooseFile(fileOf(CSV));
    const select = (await screen.findByLabelText(t.read.fieldFor('Abteilung'))) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('attributes.department'));
    expect(select.selectedOptions[0]?.textContent).toBe('Department');
  });
});
