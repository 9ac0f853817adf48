import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { importsMessages } from '../src/i18n/imports-messages';
import { apiList, en, originHeader, signedInPage } from './support/app';
import { browserMissing, captureViews, launch, screenshot, seriousA11yViolations } from './support/browser';
import { ADMIN, webDir } from './support/env';
import { pauseWebhooks } from './support/jobs';

const t = importsMessages;
/** The API's checked-in import fixtures (see their README): real files, as real software writes them. */
const FIXTURES = path.resolve(webDir, '../api/test/fixtures/imports');
const fixture = (name: string) => path.join(FIXTURES, name);

let browser: Browser;
beforeAll(async () => {
  if (browserMissing()) return;
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Chooses a file through the page's file input, as the browser's picker would. */
async function choose(page: Page, file: string) {
  await page.getByLabel(t.file.dropZone, { exact: true }).last().setInputFiles(file);
}

describe.skipIf(browserMissing())('importing users from a file', () => {
  it('reads an Excel CSV, shows the dry run and its problems, imports, and undoes the import', async () => {
    const { context, page } = await signedInPage(browser, ADMIN, { width: 1280 });
    // The users it creates would otherwise each be an event to the other tests' endpoints.
    const resumeWebhooks = await pauseWebhooks(page);
    onTestFinished(async () => {
      await resumeWebhooks();
      await context.close();
    });
    await page.goto('/users');
    await page.getByRole('link', { name: en.usersList.importUsers, exact: true }).click();
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();

    // The file names an `editor` role this installation has no such role for: those lines are errors.
    const lines = fs.readFileSync(fixture('excel-windows.csv'), 'latin1').trim().split('\r\n').slice(1);
    const unknownRole = lines.filter((l) => l.split(';')[2]?.includes('editor')).length;
    const creates = lines.length - unknownRole;
    expect(unknownRole).toBeGreaterThan(0);

    await choose(page, fixture('excel-windows.csv'));
    await page.getByText(t.summary.created(creates), { exact: false }).first().waitFor({ timeout: 60_000 });
    // How the server read it: Excel's own choices, found without being told.
    const read = page.getByRole('region', { name: t.read.title });
    await read.getByText(t.encodings['windows-1252'], { exact: true }).waitFor();
    await read.getByText(t.delimiters[';'], { exact: true }).waitFor();
    await expect(read.getByLabel(t.read.fieldFor('E-Mail'), { exact: true }).inputValue()).resolves.toBe('email');
    await read.getByText('Zoë Müller', { exact: true }).first().waitFor();
    await captureViews(page, 'import-dry-run');

    // The problem lines, filtered by code.
    const summary = page.getByRole('region', { name: t.summary.title });
    await summary
      .getByLabel(t.summary.filter, { exact: true })
      .selectOption({ label: t.summary.codeOption(t.problemCode('UNKNOWN_ROLE'), unknownRole) });
    const problems = summary.getByRole('table', { name: t.summary.problemsCaption });
    await expect(problems.getByRole('row').count()).resolves.toBe(unknownRole + 1);

    await page.getByRole('button', { name: t.run.importN(creates), exact: true }).click();
    await page.getByRole('paragraph').filter({ hasText: t.run.done }).first().waitFor({ timeout: 60_000 });
    const run = page.getByRole('region', { name: t.run.title });
    await run.getByText(t.summary.created(creates), { exact: false }).first().waitFor();
    await captureViews(page, 'import-done');
    const [jose] = (await apiList(page, 'q=jose.muller1%40example.com')).rows;
    expect(jose?.name).toBe('José Müller');

    // Someone deactivates one of the new users meanwhile: the undo will leave that one alone.
    const [jurgen] = (await apiList(page, 'q=jurgen.muller3%40example.com')).rows;
    const deactivated = await page.request.patch(`/api/users/${jurgen?.id}/active`, {
      data: { active: false },
      headers: originHeader(),
    });
    expect(deactivated.status(), await deactivated.text()).toBe(200);

    // The undo's dry run first: the confirmation says what the undo would do, as the server judged it.
    const u = en.jobUndo;
    await page.getByRole('button', { name: u.import.button, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: u.import.title });
    await dialog.getByText(u.wouldRemove(creates - 1), { exact: true }).waitFor({ timeout: 60_000 });
    await dialog.getByText(u.wouldSkip(1), { exact: true }).waitFor();
    await dialog
      .getByRole('list', { name: u.reasonsLabel })
      .getByText(u.reason(en.jobs.skipCode('CHANGED_SINCE'), 1), { exact: true })
      .waitFor();
    await expect(dialog.getByText(/would be put back/).count()).resolves.toBe(0);
    await screenshot(page, 'import-undo-dry-run-1280');
    const dialogViolations = await seriousA11yViolations(page);
    expect(dialogViolations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await dialog.getByRole('button', { name: u.import.confirm, exact: true }).click();
    await page.getByRole('link', { name: u.viewUndo, exact: true }).click();
    await page.waitForURL(/\/jobs\/\d+$/);
    await expect
      .poll(async () => (await apiList(page, 'q=jose.muller1%40example.com')).rows.length, { timeout: 60_000 })
      .toBe(0);
    expect((await apiList(page, 'q=jurgen.muller3%40example.com')).rows).toHaveLength(1);
    await page.getByText(en.jobs.statuses.succeeded, { exact: true }).first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'import-undo-job-1280');
    // A dry run, the import and the undo's dry run, each pictured and checked: slow on a busy machine.
  }, 180_000);

  it('offers one holding users.create alone what the server allows, the rest locked with its reasons', async () => {
    const admin = await signedInPage(browser, ADMIN, { width: 1280 });
    const creator = { email: `import.creator.${Date.now()}@example.com`, password: 'e2e-creator-password' };
    const made = await admin.page.request.post('/api/users', {
      data: {
        name: 'Ines Importer',
        email: creator.email,
        password: creator.password,
        password_confirmation: creator.password,
        roles_ids: [],
        permissions: ['users.create'],
      },
      headers: originHeader(),
    });
    expect(made.status(), await made.text()).toBe(201);
    await admin.context.close();

    const { context, page } = await signedInPage(browser, creator, { width: 1280 });
    onTestFinished(() => context.close());
    await page.goto('/users/import');
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();
    const upsert = page.getByRole('radio', { name: t.modes.upsert.label, exact: true });
    await page
      .getByText('You need the users.update permission to update existing users from a file (upsert).')
      .waitFor();
    await expect(upsert.isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('radio', { name: t.modes.create.label, exact: true }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('switch', { name: t.options.inactive, exact: true }).isDisabled()).resolves.toBe(true);
    await page.getByText('You need the users.setActive permission to import users as inactive.').waitFor();
    // Every role carries a permission this caller lacks: each is locked with the sentence the submission uses.
    await expect(page.getByRole('checkbox', { name: 'viewer', exact: true }).isDisabled()).resolves.toBe(true);
    await page
      .getByText(/^You cannot grant or remove the role viewer: it carries permissions you do not hold/)
      .waitFor();
    await screenshot(page, 'import-create-only-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('shows an XLSX as its cells are displayed before anything is imported', async () => {
    const { context, page } = await signedInPage(browser, ADMIN, { width: 1280 });
    onTestFinished(() => context.close());
    await page.goto('/users/import');
    await choose(page, fixture('dates-and-numbers.xlsx'));
    const read = page.getByRole('region', { name: t.read.title });
    await read.getByText(t.formats.xlsx, { exact: true }).waitFor({ timeout: 60_000 });
    await read.getByText('26/11/2026', { exact: true }).first().waitFor();
    await read.getByText('12345', { exact: true }).first().waitFor();
    await screenshot(page, 'import-xlsx-preview-1280');
  });
});
