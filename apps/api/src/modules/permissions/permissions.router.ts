import { PermissionsListResultSchema } from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { listPermissions } from './list.handler.js';

export const permissionsRouter = router({
  list: can('roles.view')
    .meta(
      rest('GET', '/permissions', {
        summary: 'The permission catalogue: each permission, what it allows, and the roles granting it',
      }),
    )
    .output(PermissionsListResultSchema)
    .query(listPermissions),
});
