import { IdInputSchema, RoleShowResultSchema, roleShowQuery } from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { showRole } from './show.handler.js';

export const rolesRouter = router({
  show: can('roles.view')
    .meta(rest('GET', '/roles/{id}', { summary: 'Show a role, optionally with its permissions and their count' }))
    .input(IdInputSchema)
    .input(roleShowQuery.input)
    .output(RoleShowResultSchema)
    .query(showRole),
});
