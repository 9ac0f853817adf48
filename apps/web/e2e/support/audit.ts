import type { AuditListResult } from '@app/contracts';
import type { Page } from 'playwright-core';
import { apiList, createUserViaApi, originHeader } from './app';

/** A user whose account has a story in the audit log: created, renamed, given a new e-mail, deactivated, a refused sign-in. */
export const HISTORY_USER = { name: 'Hedy Lamarr', email: 'hedy.history@example.com' };
export const HISTORY_RENAMED = { name: 'Hedy Kiesler', email: 'hedy.kiesler@example.com' };

/** `GET /api/audit?<query>` with the context's session. */
export async function apiAudit(page: Page, query = ''): Promise<AuditListResult> {
  const res = await page.request.get(`/api/audit${query ? `?${query}` : ''}`);
  if (!res.ok()) throw new Error(`GET /api/audit?${query} → ${res.status()} ${await res.text()}`);
  return (await res.json()) as AuditListResult;
}

async function send(page: Page, method: 'put' | 'patch', path: string, data: unknown): Promise<void> {
  const res = await page.request[method](path, { data, headers: originHeader() });
  if (!res.ok()) throw new Error(`${method.toUpperCase()} ${path} → ${res.status()} ${await res.text()}`);
}

/**
 * Writes the history user's story once (an admin page) and returns the user and the id of the
 * edit event (name and e-mail before → after). Later calls find what the first one wrote.
 */
export async function ensureAuditStory(adminPage: Page): Promise<{ userId: number; editEventId: number }> {
  const existing = await apiList(adminPage, `q=hedy&filters[trashed]=with`);
  let userId = existing.rows.find((row) => row.email === HISTORY_RENAMED.email)?.id;
  if (userId === undefined) {
    // Created but not renamed (a run stopped halfway) counts as created.
    const started = existing.rows.find((row) => row.email === HISTORY_USER.email);
    userId = started?.id ?? (await createUserViaApi(adminPage, HISTORY_USER)).id;
    const edit = await adminPage.request.get(`/api/users/${userId}/edit`);
    const { version } = ((await edit.json()) as { item: { version: string } }).item;
    await send(adminPage, 'put', `/api/users/${userId}`, { ...HISTORY_RENAMED, version });
    await send(adminPage, 'patch', `/api/users/${userId}/active`, { active: false });
    // A refused sign-in too, so the log's pages always show a danger-toned event (and axe checks it).
    const refused = await adminPage.request.post('/api/auth/login', {
      data: { email: HISTORY_RENAMED.email, password: 'not-the-password' },
      headers: originHeader(),
    });
    if (refused.status() !== 401) throw new Error(`a wrong password answered ${refused.status()}`);
  }
  const edits = await apiAudit(adminPage, `filters[target_id]=${userId}&filters[action]=user.update`);
  const edit = edits.rows[0];
  if (!edit) throw new Error(`no user.update event for user ${userId}`);
  return { userId, editEventId: edit.id };
}
