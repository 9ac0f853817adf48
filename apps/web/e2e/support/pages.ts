import { en } from './app';
import { type AppPage, h1 } from './app-page';
import { INTEGRATION_PAGES } from './pages-integrations';
import { USER_PAGES } from './pages-users';

export { type AppPage, NO_ACCESS, type PageIds, type Who } from './app-page';
export { PageVisitor, settle } from './page-visitor';

/** Every page of the SPA, as a signed-in administrator (or who else it is for) sees it. */
export const APP_PAGES: AppPage[] = [
  ...USER_PAGES,
  ...INTEGRATION_PAGES,
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
