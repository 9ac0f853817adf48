import {
  EmptyAnswerSchema,
  ForgotPasswordInputSchema,
  IdInputSchema,
  LinkPasswordInputSchema,
  PasswordResetAnswerSchema,
} from '@app/contracts';
import { publicProcedure, rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { forgotPassword } from './forgot.handler.js';
import { resetPassword } from './reset.handler.js';
import { sendPasswordReset } from './send.handler.js';

export const passwordResetRouter = router({
  forgot: publicProcedure
    .meta({
      ...rest('POST', '/auth/password/forgot', {
        status: 202,
        summary:
          'Forgot password: mails a single-use reset link when a live, active account has the e-mail. The same answer, as fast, whatever the e-mail',
        problems: ['RATE_LIMITED'],
      }),
      public: true,
    })
    .input(ForgotPasswordInputSchema)
    .output(EmptyAnswerSchema)
    .mutation(forgotPassword),
  reset: publicProcedure
    .meta({
      ...rest('POST', '/auth/password/reset', {
        summary:
          "Choose a new password through a reset mail's link; ends every session and API token of the account (signs nobody in)",
        problems: ['INVALID_TOKEN'],
      }),
      public: true,
    })
    .input(LinkPasswordInputSchema)
    .output(EmptyAnswerSchema)
    .mutation(resetPassword),
  send: can('users.update')
    .meta(
      rest('POST', '/users/{id}/password-reset', {
        status: 202,
        summary:
          'Send a user a single-use link to choose a new password, mailed (without mail: answered as url). A newer link voids the earlier one.',
        problems: ['OUTRANKED', 'NOT_ACTIVE'],
      }),
    )
    .input(IdInputSchema)
    .output(PasswordResetAnswerSchema)
    .mutation(sendPasswordReset),
});
