import {
  IdInputSchema,
  RoleCreatedSchema,
  RoleCreateInputSchema,
  RoleDeleteQuerySchema,
  RolePreviewInputSchema,
  RolePreviewSchema,
  RoleShowResultSchema,
  RolesExportInputSchema,
  RolesListResultSchema,
  RoleUpdatedSchema,
  RoleUpdateInputSchema,
  roleShowQuery,
  rolesListQuery,
} from '@app/contracts';
import { exportProcedure } from '../../trpc/export-procedure.js';
import { rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { createRole } from './create.handler.js';
import { deleteRole } from './delete.handler.js';
import { exportRoles } from './export.handler.js';
import { listRoles } from './list.handler.js';
import { previewNewRole, previewRoleChange } from './preview.handler.js';
import { showRole } from './show.handler.js';
import { updateRole } from './update.handler.js';

export const rolesRouter = router({
  list: can('roles.view')
    .meta(
      rest('GET', '/roles', {
        summary: 'List roles with their permission and user counts: search, filter, sort, page',
      }),
    )
    .input(rolesListQuery.input)
    .output(RolesListResultSchema)
    .query(listRoles),
  export: exportProcedure({
    permission: 'roles.view',
    path: '/roles/export',
    summary: 'Download the roles matching a list query as CSV, XLSX or JSON',
    input: RolesExportInputSchema,
    handler: exportRoles,
  }),
  show: can('roles.view')
    .meta(
      rest('GET', '/roles/{id}', {
        summary: 'Show a role, optionally with its permissions and the counts of its permissions and users',
      }),
    )
    .input(IdInputSchema)
    .input(roleShowQuery.input)
    .output(RoleShowResultSchema)
    .query(showRole),
  create: can('roles.create')
    .meta(rest('POST', '/roles', { status: 201, summary: 'Create a role granting permissions you hold' }))
    .input(RoleCreateInputSchema)
    .output(RoleCreatedSchema)
    .mutation(createRole),
  update: can('roles.update')
    .meta(
      rest('PUT', '/roles/{id}', {
        summary: 'Rename a role, describe it, change its permissions (optimistic lock: send its version)',
        problems: ['OUTRANKED', 'ROLE_PROTECTED', 'VERSION_CONFLICT', 'LAST_ADMIN'],
      }),
    )
    .input(IdInputSchema)
    .input(RoleUpdateInputSchema)
    .output(RoleUpdatedSchema)
    .mutation(updateRole),
  delete: can('roles.delete')
    .meta(
      rest('DELETE', '/roles/{id}', {
        status: 204,
        summary: 'Delete a role; one given to users needs detach=true, which takes it from them',
        problems: ['OUTRANKED', 'ROLE_PROTECTED', 'ROLE_IN_USE', 'LAST_ADMIN'],
      }),
    )
    .input(IdInputSchema)
    .input(RoleDeleteQuerySchema)
    .mutation(deleteRole),
  preview: can('roles.update')
    .meta(
      rest('POST', '/roles/{id}/preview', {
        summary:
          'Preview saving a permission set on a role: who gains and loses what, who is outranked, nothing written',
      }),
    )
    .input(IdInputSchema)
    .input(RolePreviewInputSchema)
    .output(RolePreviewSchema)
    .mutation(previewRoleChange),
  previewNew: can('roles.create')
    .meta(
      rest('POST', '/roles/preview', { summary: 'Preview creating a role granting a permission set, nothing written' }),
    )
    .input(RolePreviewInputSchema)
    .output(RolePreviewSchema)
    .mutation(previewNewRole),
});
