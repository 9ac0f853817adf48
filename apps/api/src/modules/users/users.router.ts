import {
  IdInputSchema,
  UserAccessResultSchema,
  UserEditResultSchema,
  UserNewResultSchema,
  UserShowResultSchema,
  UsersListResultSchema,
  UsersExportInputSchema,
  UsersSelectedInputSchema,
  UsersSelectedResultSchema,
  usersListQuery,
  userShowQuery,
} from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { exportProcedure } from '../../trpc/export-procedure.js';
import { can } from '../../trpc/procedures.js';
import { userAccess } from './access.handler.js';
import { editUser } from './edit.handler.js';
import { exportUsers } from './export.handler.js';
import { listUsers } from './list.handler.js';
import { newUserForm } from './new.handler.js';
import { selectedUsers } from './selected.handler.js';
import { showUser } from './show.handler.js';
import { usersWriteProcedures } from './users.write-procedures.js';

export const usersRouter = router({
  ...usersWriteProcedures,
  list: can('users.view')
    .meta(rest('GET', '/users', { summary: 'List users: search, filter, sort, page' }))
    .input(usersListQuery.input)
    .output(UsersListResultSchema)
    .query(listUsers),
  selected: can('users.view')
    .meta(rest('GET', '/users/selected', { summary: 'Every id matching a list query, for "select all"' }))
    .input(UsersSelectedInputSchema)
    .output(UsersSelectedResultSchema)
    .query(selectedUsers),
  export: exportProcedure({
    permission: 'users.export',
    path: '/users/export',
    summary: 'Download the users matching a list query as CSV, XLSX or JSON (streamed)',
    input: UsersExportInputSchema,
    handler: exportUsers,
  }),
  new: can('users.create')
    .meta(rest('GET', '/users/new', { summary: 'Data for the create form: each role and whether you may grant it' }))
    .output(UserNewResultSchema)
    .query(newUserForm),
  show: can('users.view')
    .meta(rest('GET', '/users/{id}', { summary: 'Show a user, optionally with roles, counts and computed fields' }))
    .input(IdInputSchema)
    .input(userShowQuery.input)
    .output(UserShowResultSchema)
    .query(showUser),
  edit: can('users.update')
    .meta(rest('GET', '/users/{id}/edit', { summary: 'Data for the edit form' }))
    .input(IdInputSchema)
    .output(UserEditResultSchema)
    .query(editUser),
  access: can('users.view')
    .meta(
      rest('GET', '/users/{id}/access', {
        summary: 'Each permission a user holds, with its sources: the roles granting it, or a direct grant',
      }),
    )
    .input(IdInputSchema)
    .output(UserAccessResultSchema)
    .query(userAccess),
});
