import type { Permission } from '@app/contracts';
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { HomeRedirect } from './features/auth/home-redirect';
import { RequireAuth } from './features/auth/require-auth';
import { RequirePermission } from './features/auth/require-permission';
import { NotFoundPage } from './features/errors/not-found-page';
import { RouteErrorPage } from './features/errors/route-error-page';
import { UsersListPage } from './features/users/list/users-list-page';
import { AppLayout } from './layout/app-layout';
import { RouteLoading } from './features/auth/full-page-loading';
import { FORGOT_PASSWORD_PATH, INVITE_PATH, RESET_PASSWORD_PATH } from './lib/link-paths';

/**
 * A page loaded on first visit, so the users list (where most sessions start) does not carry
 * the forms' code; `permission` wraps it in `RequirePermission`.
 */
function lazyPage(load: () => Promise<ComponentType>, permission?: Permission): RouteObject['lazy'] {
  return async () => {
    const Page = await load();
    return {
      element: permission ? (
        <RequirePermission permission={permission}>
          <Page />
        </RequirePermission>
      ) : (
        <Page />
      ),
    };
  };
}

/** Pages that stand alone as `/login` does: no session asked, no layout. */
function publicLinkRoutes(pages: [path: string, load: () => Promise<ComponentType>][]): RouteObject[] {
  return pages.map(([path, load]) => ({
    path,
    lazy: lazyPage(load),
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <RouteLoading />,
  }));
}

/**
 * `/login` stands alone; everything else needs a session (`RequireAuth`) and sits in the layout.
 * A page that needs a permission says so with `RequirePermission`, which explains a refusal
 * instead of showing controls that would fail.
 */
export const routes: RouteObject[] = [
  {
    path: '/login',
    lazy: lazyPage(() => import('./features/auth/login-page').then((m) => m.LoginPage)),
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <RouteLoading />,
  },
  // Reached without a session, from the sign-in page and from mails' links.
  ...publicLinkRoutes([
    [FORGOT_PASSWORD_PATH, () => import('./features/links/forgot-password-page').then((m) => m.ForgotPasswordPage)],
    [INVITE_PATH, () => import('./features/links/link-password-page').then((m) => m.InvitePage)],
    [RESET_PASSWORD_PATH, () => import('./features/links/link-password-page').then((m) => m.ResetPasswordPage)],
  ]),
  {
    path: '/',
    element: (
      <RequireAuth>
        <AppLayout />
      </RequireAuth>
    ),
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <RouteLoading />,
    children: [
      { index: true, element: <HomeRedirect /> },
      { path: 'account', lazy: lazyPage(() => import('./features/account/account-page').then((m) => m.AccountPage)) },
      {
        path: 'account/tokens',
        lazy: lazyPage(() => import('./features/tokens/my-tokens-page').then((m) => m.MyTokensPage)),
      },
      {
        path: 'account/sessions',
        lazy: lazyPage(() => import('./features/sessions/my-sessions-page').then((m) => m.MySessionsPage)),
      },
      {
        path: 'account/two-factor',
        lazy: lazyPage(() => import('./features/account/two-factor-page').then((m) => m.TwoFactorPage)),
      },
      { path: 'status', lazy: lazyPage(() => import('./features/system/home-page').then((m) => m.HomePage)) },
      {
        path: 'users',
        element: (
          <RequirePermission permission="users.view">
            <UsersListPage />
          </RequirePermission>
        ),
      },
      {
        path: 'users/new',
        lazy: lazyPage(() => import('./features/users/pages/user-new-page').then((m) => m.UserNewPage), 'users.create'),
      },
      {
        path: 'users/import',
        lazy: lazyPage(() => import('./features/imports/import-page').then((m) => m.ImportPage), 'users.create'),
      },
      {
        path: 'users/:id',
        lazy: lazyPage(() => import('./features/users/pages/user-show-page').then((m) => m.UserShowPage), 'users.view'),
      },
      {
        path: 'users/:id/edit',
        lazy: lazyPage(
          () => import('./features/users/pages/user-edit-page').then((m) => m.UserEditPage),
          'users.update',
        ),
      },
      {
        path: 'audit',
        lazy: lazyPage(() => import('./features/audit/audit-list-page').then((m) => m.AuditListPage), 'audit.view'),
      },
      {
        path: 'audit/:id',
        lazy: lazyPage(() => import('./features/audit/audit-event-page').then((m) => m.AuditEventPage), 'audit.view'),
      },
      {
        path: 'webhooks',
        lazy: lazyPage(
          () => import('./features/webhooks/webhooks-list-page').then((m) => m.WebhooksListPage),
          'webhooks.manage',
        ),
      },
      {
        path: 'webhooks/new',
        lazy: lazyPage(
          () => import('./features/webhooks/webhook-new-page').then((m) => m.WebhookNewPage),
          'webhooks.manage',
        ),
      },
      {
        path: 'webhooks/:id',
        lazy: lazyPage(
          () => import('./features/webhooks/webhook-show-page').then((m) => m.WebhookShowPage),
          'webhooks.manage',
        ),
      },
      {
        path: 'webhooks/:id/edit',
        lazy: lazyPage(
          () => import('./features/webhooks/webhook-edit-page').then((m) => m.WebhookEditPage),
          'webhooks.manage',
        ),
      },
      {
        path: 'webhooks/:id/deliveries/:deliveryId',
        lazy: lazyPage(
          () => import('./features/webhooks/delivery-page').then((m) => m.DeliveryPage),
          'webhooks.manage',
        ),
      },
      { path: 'jobs', lazy: lazyPage(() => import('./features/jobs/jobs-list-page').then((m) => m.JobsListPage)) },
      { path: 'jobs/:id', lazy: lazyPage(() => import('./features/jobs/job-page').then((m) => m.JobPage)) },
      {
        path: 'roles',
        lazy: lazyPage(() => import('./features/roles/roles-list-page').then((m) => m.RolesListPage), 'roles.view'),
      },
      {
        path: 'roles/new',
        lazy: lazyPage(() => import('./features/roles/role-new-page').then((m) => m.RoleNewPage), 'roles.create'),
      },
      {
        path: 'roles/:id',
        lazy: lazyPage(() => import('./features/roles/role-show-page').then((m) => m.RoleShowPage), 'roles.view'),
      },
      {
        path: 'roles/:id/edit',
        lazy: lazyPage(() => import('./features/roles/role-edit-page').then((m) => m.RoleEditPage), 'roles.update'),
      },
      {
        path: 'settings/sign-in',
        lazy: lazyPage(() => import('./features/providers/providers-page').then((m) => m.ProvidersPage), 'auth.manage'),
      },
      {
        path: 'settings/sign-in/new',
        lazy: lazyPage(
          () => import('./features/providers/provider-page').then((m) => m.NewProviderPage),
          'auth.manage',
        ),
      },
      {
        path: 'settings/sign-in/:id',
        lazy: lazyPage(() => import('./features/providers/provider-page').then((m) => m.ProviderPage), 'auth.manage'),
      },
      {
        path: 'settings/attributes',
        lazy: lazyPage(
          () => import('./features/attributes/attributes-page').then((m) => m.AttributesPage),
          'attributes.manage',
        ),
      },
      {
        path: 'settings/attributes/new',
        lazy: lazyPage(
          () => import('./features/attributes/attribute-page').then((m) => m.AttributeNewPage),
          'attributes.manage',
        ),
      },
      {
        path: 'settings/attributes/:key',
        lazy: lazyPage(
          () => import('./features/attributes/attribute-page').then((m) => m.AttributeEditPage),
          'attributes.manage',
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
