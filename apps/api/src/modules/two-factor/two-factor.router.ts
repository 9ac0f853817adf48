import {
  AuthSessionSchema,
  IdInputSchema,
  RecoveryCodesSchema,
  SecondFactorInputSchema,
  TwoFactorConfirmInputSchema,
  TwoFactorSetupSchema,
  TwoFactorStateSchema,
} from '@app/contracts';
import { z } from 'zod';
import { publicProcedure, rest, router } from '../../trpc/init.js';
import { can, protectedProcedure } from '../../trpc/procedures.js';
import { confirmTwoFactorEnrolment, disableTwoFactor, startTwoFactor } from './enrolment.handlers.js';
import { resetTwoFactor } from './reset.handler.js';
import { signInWithSecondFactor } from './sign-in.handler.js';

/** Two-factor sign-in (TOTP, SPEC §14). One's own routes stay open to a session held at enrolment. */
export const twoFactorRouter = router({
  start: protectedProcedure
    .meta({
      ...rest('POST', '/account/two-factor', {
        summary: 'Set up two-factor sign-in: a new secret (base32) and its otpauth:// URL, pending until confirmed',
        problems: ['TWO_FACTOR_ENROLLED'],
      }),
      duringEnrolment: true,
    })
    .output(TwoFactorSetupSchema)
    .mutation(startTwoFactor),
  confirm: protectedProcedure
    .meta({
      ...rest('POST', '/account/two-factor/confirm', {
        summary: 'Confirm the set-up with a code from the app; answers ten recovery codes, shown this once',
        problems: ['TWO_FACTOR_ENROLLED', 'TWO_FACTOR_NOT_PENDING', 'RATE_LIMITED'],
      }),
      duringEnrolment: true,
    })
    .input(TwoFactorConfirmInputSchema)
    .output(RecoveryCodesSchema)
    .mutation(confirmTwoFactorEnrolment),
  disable: protectedProcedure
    .meta({
      ...rest('DELETE', '/account/two-factor', {
        summary: 'Turn two-factor sign-in off, proven with a code or a recovery code (JSON body)',
        problems: ['TWO_FACTOR_NOT_ENROLLED', 'RATE_LIMITED'],
        body: true,
      }),
      duringEnrolment: true,
    })
    .input(SecondFactorInputSchema)
    .output(z.object({ two_factor: TwoFactorStateSchema }))
    .mutation(disableTwoFactor),
  signIn: publicProcedure
    .meta({
      ...rest('POST', '/auth/two-factor', {
        summary:
          "Sign in's second step: a code or a recovery code, from the client that gave the password, within 5 minutes; sets the session cookie",
        problems: ['TWO_FACTOR_CHALLENGE_EXPIRED', 'RATE_LIMITED'],
      }),
      public: true,
    })
    .input(SecondFactorInputSchema)
    .output(AuthSessionSchema)
    .mutation(signInWithSecondFactor),
  reset: can('users.update')
    .meta(
      rest('DELETE', '/users/{id}/two-factor', {
        status: 204,
        summary: "Reset a user's second factor (a lost phone): they sign in with the password and set up again",
        problems: ['OUTRANKED', 'TWO_FACTOR_NOT_ENROLLED'],
      }),
    )
    .input(IdInputSchema)
    .mutation(resetTwoFactor),
});
