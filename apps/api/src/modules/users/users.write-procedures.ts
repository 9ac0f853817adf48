import {
  BULK_PERMISSIONS,
  BulkInputSchema,
  BulkReportSchema,
  IdInputSchema,
  JobAnswerSchema,
  SetActiveInputSchema,
  UserCreateAnswerSchema,
  UserCreateInputSchema,
  UserItemSchema,
  UserUpdateInputSchema,
} from '@app/contracts';
import { z } from 'zod';
import { rest } from '../../trpc/init.js';
import { can, protectedProcedure } from '../../trpc/procedures.js';
import { runBulk } from './users.bulk.js';
import { createUser } from './create.handler.js';
import { deleteUser } from './delete.handler.js';
import { forceDeleteUser } from './force-delete.handler.js';
import { restoreUser } from './restore.handler.js';
import { setUserActive } from './set-active.handler.js';
import { updateUser } from './update.handler.js';

const ItemResultSchema = z.object({ item: UserItemSchema });

/** The users write routes; merged into the users router beside the read routes. */
export const usersWriteProcedures = {
  create: can('users.create')
    .meta(
      rest('POST', '/users', {
        status: 201,
        summary:
          'Create a user; with invite: true (and no password) invite them too, answered as the invite route answers (without mail: url).',
        problems: ['NOT_ACTIVE'],
      }),
    )
    .input(UserCreateInputSchema)
    .output(UserCreateAnswerSchema)
    .mutation(createUser),
  update: can('users.update')
    .meta(
      rest('PUT', '/users/{id}', {
        summary: 'Update a user (optimistic lock: send the version from /edit)',
        problems: ['OUTRANKED', 'VERSION_CONFLICT'],
      }),
    )
    .input(IdInputSchema)
    .input(UserUpdateInputSchema)
    .output(ItemResultSchema)
    .mutation(updateUser),
  setActive: can('users.setActive')
    .meta(rest('PATCH', '/users/{id}/active', { summary: 'Activate or deactivate a user', problems: ['OUTRANKED'] }))
    .input(IdInputSchema)
    .input(SetActiveInputSchema)
    .output(ItemResultSchema)
    .mutation(setUserActive),
  delete: can('users.delete')
    .meta(
      rest('DELETE', '/users/{id}', { status: 204, summary: 'Soft-delete an inactive user', problems: ['OUTRANKED'] }),
    )
    .input(IdInputSchema)
    .mutation(deleteUser),
  restore: can('users.restore')
    .meta(
      rest('POST', '/users/{id}/restore', {
        summary: 'Restore a deleted user',
        problems: ['OUTRANKED', 'NOT_DELETED'],
      }),
    )
    .input(IdInputSchema)
    .output(ItemResultSchema)
    .mutation(restoreUser),
  forceDelete: can('users.forceDelete')
    .meta(
      rest('DELETE', '/users/{id}/force', {
        status: 204,
        summary: 'Erase a deleted user for good',
        problems: ['OUTRANKED', 'NOT_DELETED'],
      }),
    )
    .input(IdInputSchema)
    .mutation(forceDeleteUser),
  // The permission depends on the operation: the guard (preflight) reads it from the raw input,
  // so it is still checked before validation; a caller holding none of them is refused before
  // the input is read at all. An unrecognised operation is left to validation's 422.
  bulk: protectedProcedure
    .meta({
      ...rest('POST', '/users/bulk', {
        summary:
          'Delete, restore, purge, (de)activate, give or take a role or invite many users; dryRun previews. A selection (every user a list query matches) runs as a job: 202.',
        accepted: { key: 'job', schema: JobAnswerSchema, otherwise: BulkReportSchema },
      }),
      permissionOf: { field: 'operation', permissions: BULK_PERMISSIONS },
    })
    .input(BulkInputSchema)
    .output(z.union([BulkReportSchema, JobAnswerSchema]))
    .mutation(runBulk),
};
