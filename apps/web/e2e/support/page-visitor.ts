import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { type Account, apiList, createUserViaApi, findUser, networkQuiet, signInViaApi, trackNetwork } from './app';
import { type AppPage, NO_ACCESS, type PageIds, type Who } from './app-page';
import { ensureAuditStory } from './audit';
import { newPage, screenshot, type ViewOptions } from './browser';
import { ADMIN } from './env';
import { ensureTokenStory, ensureWebhookStory } from './integrations';
import { ensureJobStory } from './jobs';

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
