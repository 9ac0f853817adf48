import type { Page } from 'playwright-core';

/** An account with no role at all: it may sign in and see only what it may do (nothing). */
export const NO_ACCESS = {
  name: 'Nora Noaccess',
  email: 'nora.noaccess@example.com',
  password: 'e2e-noaccess-password',
};

export type Who = 'anonymous' | 'admin' | 'noAccess';

export interface AppPage {
  /** File-name part: `users-list` → `users-list-dark-375.png`. */
  name: string;
  title: string;
  who: Who;
  /** The path to open (ids resolved through the API once). */
  path: (ids: PageIds) => string;
  /** Resolves when the page shows its content (not a skeleton). */
  ready: (page: Page, ids: PageIds) => Promise<void>;
}

export interface PageIds {
  user: { id: number; name: string };
  role: { id: number; name: string };
  /** A user with a history in the audit log, and the event that edited them. */
  audit: { userId: number; editEventId: number };
  /** An endpoint with a delivered and a failed delivery, and the failed one. */
  webhook: { id: number; deliveryId: number };
  /** A finished dry run of a bulk job (over every active user). */
  job: { id: number };
}

/** Resolves once the page's one h1 reads `name`. */
export const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
