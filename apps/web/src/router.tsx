import { createBrowserRouter, type RouteObject } from 'react-router';
import { NotFoundPage } from './features/errors/not-found-page';
import { RouteErrorPage } from './features/errors/route-error-page';
import { HomePage } from './features/system/home-page';
import { AppLayout } from './layout/app-layout';

/** Feature routes (login, users, roles) are added as children of the layout route. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
