import {
  AccountPasswordInputSchema,
  AccountSchema,
  AccountUpdateInputSchema,
  PasswordChangedSchema,
} from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { protectedProcedure } from '../../trpc/procedures.js';
import { readAccount } from './account.item.js';
import { changeOwnPassword } from './password.handler.js';
import { updateAccount } from './update.handler.js';

/** Self-service (SPEC §14): any signed-in person, their own account, no permission needed. */
export const accountRouter = router({
  show: protectedProcedure
    .meta(rest('GET', '/account', { summary: 'Your own account: name, e-mail, roles, second factor' }))
    .output(AccountSchema)
    .query(({ ctx }) => readAccount(ctx.db, ctx.actor)),
  update: protectedProcedure
    .meta(rest('PUT', '/account', { summary: 'Change your own name' }))
    .input(AccountUpdateInputSchema)
    .output(AccountSchema)
    .mutation(updateAccount),
  changePassword: protectedProcedure
    .meta(
      rest('PUT', '/account/password', {
        summary: 'Change your own password, proven by the current one; every other session and API token of yours ends',
        problems: ['RATE_LIMITED', 'VERSION_CONFLICT'],
      }),
    )
    .input(AccountPasswordInputSchema)
    .output(PasswordChangedSchema)
    .mutation(changeOwnPassword),
});
