import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

describe('role page', () => {
  it('shows the role, its guard, its permissions and their count', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['roles.view'])),
      'roles.show': ok({
        item: {
          id: 3,
          name: 'viewer',
          guard_name: 'web',
          permissions: [
            { id: 9, name: 'roles.view' },
            { id: 1, name: 'users.view' },
          ],
          permissions_count: 2,
        },
        meta: { loaded_relations: ['permissions'], loaded_counts: ['permissions_count'], loaded_appends: [] },
      }),
    });
    renderApp('/roles/3');

    expect(await screen.findByRole('heading', { level: 1, name: 'viewer' })).toBeTruthy();
    expect(screen.getByText(en.role.guard('web'))).toBeTruthy();
    expect(screen.getByText(en.role.permissionCount(2))).toBeTruthy();
    expect(screen.getAllByText(en.role.granted)).toHaveLength(2);
    expect(screen.getByText(en.permissions.names['users.view']!.label)).toBeTruthy();
    expect(api.callsTo('roles.show')[0]).toEqual({ id: 3, with: ['permissions'], withCount: ['permissions'] });
  });
});
