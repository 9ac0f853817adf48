import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  type Account,
  apiList,
  createUserViaApi,
  en,
  findUser,
  networkQuiet,
  signInViaApi,
  trackNetwork,
  waitForRows,
} from './app';
import { ensureAuditStory, HISTORY_RENAMED } from './audit';
import { newPage, screenshot, type ViewOptions } from './browser';
import { ADMIN } from './env';
import { ensureTokenStory, ensureWebhookStory, TOKEN_STORY, WEBHOOK_STORY } from './integrations';
import { ensureJobStory } from './jobs';

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

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();

/** Every page of the SPA, as a signed-in administrator (or who else it is for) sees it. */
export const APP_PAGES: AppPage[] = [
  {
    name: 'login',
    title: 'the login page',
    who: 'anonymous',
    path: () => '/login',
    ready: (p) => h1(p, en.auth.title),
  },
  {
    name: 'users-list',
    title: 'the users list',
    who: 'admin',
    path: () => '/users',
    ready: async (p) => {
      await h1(p, en.usersList.title);
      await waitForRows(p);
    },
  },
  {
    name: 'user-show',
    title: 'a user’s page',
    who: 'admin',
    path: ({ user }) => `/users/${user.id}`,
    ready: (p, { user }) => h1(p, user.name),
  },
  {
    name: 'user-edit',
    title: 'the edit form',
    who: 'admin',
    path: ({ user }) => `/users/${user.id}/edit`,
    ready: async (p, { user }) => {
      await h1(p, en.userForm.editTitle);
      const name = p.getByLabel(en.userForm.name, { exact: true });
      await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe(user.name);
    },
  },
  {
    name: 'user-new',
    title: 'the new-user form',
    who: 'admin',
    path: () => '/users/new',
    ready: async (p) => {
      await h1(p, en.userForm.newTitle);
      await p.getByRole('group', { name: en.userForm.roles }).waitFor();
    },
  },
  {
    name: 'role',
    title: 'a role’s page',
    who: 'admin',
    path: ({ role }) => `/roles/${role.id}`,
    ready: (p, { role }) => h1(p, role.name),
  },
  {
    name: 'audit-list',
    title: 'the audit log',
    who: 'admin',
    path: () => '/audit',
    ready: async (p) => {
      await h1(p, en.audit.title);
      await p
        .getByRole('table', { name: en.audit.table.label })
        .or(p.getByRole('list', { name: en.audit.table.label }))
        .locator(':is(tbody tr, li) a[href^="/audit/"]')
        .first()
        .waitFor();
    },
  },
  {
    name: 'audit-event',
    title: 'an audit event',
    who: 'admin',
    path: ({ audit }) => `/audit/${audit.editEventId}`,
    ready: (p) => h1(p, en.audit.actions['user.update']),
  },
  {
    name: 'user-history',
    title: 'a user’s page with its History',
    who: 'admin',
    path: ({ audit }) => `/users/${audit.userId}`,
    ready: async (p) => {
      await h1(p, HISTORY_RENAMED.name);
      await p.getByRole('heading', { name: en.audit.history.title, exact: true }).waitFor();
      await p.getByText(HISTORY_RENAMED.email, { exact: true }).first().waitFor();
    },
  },
  {
    name: 'account-tokens',
    title: 'your API tokens',
    who: 'admin',
    path: () => '/account/tokens',
    ready: async (p) => {
      await h1(p, en.tokens.title);
      await p.getByRole('heading', { name: TOKEN_STORY.used, exact: true }).waitFor();
    },
  },
  {
    name: 'account-sessions',
    title: 'your sessions',
    who: 'admin',
    path: () => '/account/sessions',
    ready: async (p) => {
      await h1(p, en.sessions.title);
      await p.getByText(en.sessions.list.thisDevice, { exact: true }).waitFor();
    },
  },
  {
    name: 'webhooks-list',
    title: 'the webhooks',
    who: 'admin',
    path: () => '/webhooks',
    ready: async (p) => {
      await h1(p, en.webhooks.title);
      await p.getByText(WEBHOOK_STORY.description, { exact: true }).first().waitFor();
    },
  },
  {
    name: 'webhook-new',
    title: 'the new-webhook form',
    who: 'admin',
    path: () => '/webhooks/new',
    ready: (p) => h1(p, en.webhooks.form.newTitle),
  },
  {
    name: 'webhook-show',
    title: 'a webhook endpoint and its delivery log',
    who: 'admin',
    path: ({ webhook }) => `/webhooks/${webhook.id}`,
    ready: async (p, { webhook }) => {
      await p.getByRole('heading', { level: 1 }).waitFor();
      await p.locator(`a[href="/webhooks/${webhook.id}/deliveries/${webhook.deliveryId}"]`).waitFor();
    },
  },
  {
    name: 'webhook-delivery',
    title: 'a failed webhook delivery',
    who: 'admin',
    path: ({ webhook }) => `/webhooks/${webhook.id}/deliveries/${webhook.deliveryId}`,
    ready: async (p) => {
      await h1(p, en.webhooks.events['user.deactivated'].label);
      await p.getByText(en.webhooks.delivery.attempt(2), { exact: true }).waitFor();
    },
  },
  {
    name: 'jobs-list',
    title: 'the jobs list',
    who: 'admin',
    path: () => '/jobs',
    ready: async (p, { job }) => {
      await h1(p, en.jobs.title);
      await p.locator(`a[href="/jobs/${job.id}"]`).first().waitFor();
    },
  },
  {
    name: 'job',
    title: 'a background job',
    who: 'admin',
    path: ({ job }) => `/jobs/${job.id}`,
    ready: async (p, { job }) => {
      await h1(p, en.jobs.jobName(job.id, en.jobs.operations.deactivate));
      await p.getByText(en.jobs.skipCode('SELF_DEACTIVATION'), { exact: true }).waitFor();
    },
  },
  {
    name: 'account-no-access',
    title: 'the page for an account that may see nothing',
    who: 'noAccess',
    path: () => '/account',
    ready: async (p) => {
      await h1(p, en.account.title);
      await p.getByText(en.account.noneTitle, { exact: true }).waitFor();
    },
  },
  {
    name: 'not-found',
    title: 'the 404 page',
    who: 'admin',
    path: () => '/no-such-page',
    ready: (p) => h1(p, en.notFound.title),
  },
];

/** Creates the no-role account once (needs an admin page). */
async function ensureNoAccessAccount(adminPage: Page): Promise<void> {
  const existing = await apiList(adminPage, `q=${encodeURIComponent(NO_ACCESS.email)}`);
  if (existing.rows.some((row) => row.email === NO_ACCESS.email)) return;
  await createUserViaApi(adminPage, {
    name: NO_ACCESS.name,
    email: NO_ACCESS.email,
    password: NO_ACCESS.password,
    roles_ids: [],
  });
}

/**
 * One signed-in context and one tab per account and view, made on first use and reused: the
 * first visit loads the SPA, later ones navigate inside it (as a click on a link would), so 32
 * screenshots do not cost 32 cold starts. Also resolves the ids the pages need: a demo user
 * nobody else changes (the first active Hopper with the manager role) and that role.
 */
export class PageVisitor {
  private tabs = new Map<string, Promise<{ context: BrowserContext; page: Page; fresh: boolean }>>();
  private idsPromise: Promise<PageIds> | undefined;

  constructor(private readonly browser: Browser) {}

  private tab(who: Who, opts: ViewOptions) {
    const key = `${who}:${opts.theme}:${opts.width}`;
    let made = this.tabs.get(key);
    if (!made) {
      made = (async () => {
        if (who === 'noAccess') await this.ids(); // the account exists once ids are known
        const { context, page } = await newPage(this.browser, opts);
        trackNetwork(page);
        if (who === 'admin') await signInViaApi(context, ADMIN);
        if (who === 'noAccess') await signInViaApi(context, NO_ACCESS as Account);
        return { context, page, fresh: true };
      })();
      this.tabs.set(key, made);
    }
    return made;
  }

  ids(): Promise<PageIds> {
    this.idsPromise ??= (async () => {
      const { page } = await this.tab('admin', { theme: 'light', width: 1280 });
      await ensureNoAccessAccount(page);
      const { availableRoles } = await apiList(page);
      const role = availableRoles.find((r) => r.name === 'manager') ?? availableRoles[0];
      if (!role) throw new Error('no roles');
      const user = await findUser(
        page,
        'hopper',
        `filters[is_active]=active&filters[role_id][]=${role.id}&sort=id&dir=asc`,
      );
      const audit = await ensureAuditStory(page);
      await ensureTokenStory(page);
      const webhook = await ensureWebhookStory(page);
      const job = await ensureJobStory(page);
      return { user: { id: user.id, name: user.name }, role, audit, webhook, job };
    })();
    return this.idsPromise;
  }

  /** Shows an app page in the given view and waits until it is ready and idle. Do not close the page. */
  async open(appPage: AppPage, opts: ViewOptions): Promise<Page> {
    const ids = await this.ids();
    const tab = await this.tab(appPage.who, opts);
    const path = appPage.path(ids);
    if (tab.fresh) {
      tab.fresh = false;
      await tab.page.goto(path);
    } else {
      // In-app navigation: the router follows history changes announced by popstate.
      await tab.page.evaluate((to) => {
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
      }, path);
    }
    try {
      await tab.page.waitForURL((url) => `${url.pathname}${url.search}` === path);
      await appPage.ready(tab.page, ids);
      await settle(tab.page);
    } catch (error) {
      // Leave evidence: what the page showed instead.
      const name = `failed-${appPage.name}-${opts.theme}-${opts.width}`;
      await screenshot(tab.page, name).catch(() => undefined);
      const shown = (
        await tab.page
          .locator('body')
          .innerText()
          .catch(() => '')
      )
        .replace(/\s+/g, ' ')
        .slice(0, 500);
      throw new Error(
        `${appPage.title} did not get ready at ${tab.page.url()} (see test-results/${name}.png). The page shows: ${shown}`,
        {
          cause: error,
        },
      );
    }
    return tab.page;
  }

  async close(): Promise<void> {
    for (const made of this.tabs.values()) await (await made).context.close();
  }
}

/** No request in flight, no skeleton or spinner left, fonts loaded. */
export async function settle(page: Page): Promise<void> {
  await networkQuiet(page);
  await expect
    .poll(() => page.locator('.animate-pulse, .animate-spin, [aria-busy="true"]').count(), { timeout: 10_000 })
    .toBe(0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}
