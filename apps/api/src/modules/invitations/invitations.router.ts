import { AuthSessionSchema, IdInputSchema, InviteAnswerSchema, LinkPasswordInputSchema } from '@app/contracts';
import { publicProcedure, rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { acceptInvitation } from './accept.handler.js';
import { inviteUser } from './invite.handler.js';

export const invitationsRouter = router({
  send: can('users.update')
    .meta(
      rest('POST', '/users/{id}/invite', {
        status: 202,
        summary:
          'Invite a user: a single-use link to choose a password, mailed (without mail: answered as url). A newer invitation voids the earlier one.',
        problems: ['OUTRANKED', 'NOT_ACTIVE', 'ALREADY_SIGNED_IN'],
      }),
    )
    .input(IdInputSchema)
    .output(InviteAnswerSchema)
    .mutation(inviteUser),
  accept: publicProcedure
    .meta({
      ...rest('POST', '/auth/invitations/accept', {
        summary: "Accept an invitation: choose a password through the mail's link; sets the session cookie",
        problems: ['INVALID_TOKEN'],
      }),
      public: true,
    })
    .input(LinkPasswordInputSchema)
    .output(AuthSessionSchema)
    .mutation(acceptInvitation),
});
