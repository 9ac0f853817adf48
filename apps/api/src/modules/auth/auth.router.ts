import {
  AuthSessionSchema,
  LoginAnswerSchema,
  LoginInputSchema,
  SessionIdInputSchema,
  SessionListSchema,
  SessionsRevokedSchema,
} from '@app/contracts';
import { publicProcedure, rest, router } from '../../trpc/init.js';
import { protectedProcedure } from '../../trpc/procedures.js';
import { toAuthSession } from './auth.session.js';
import { login } from './login.handler.js';
import { logout } from './logout.handler.js';
import { listOwnSessions } from '../sessions/list.handler.js';
import { revokeOtherSessions } from '../sessions/revoke-others.handler.js';
import { revokeOwnSession } from '../sessions/revoke.handler.js';

export const authRouter = router({
  login: publicProcedure
    .meta({
      ...rest('POST', '/auth/login', {
        summary:
          'Sign in; sets the session cookie. For an account with a second factor: {two_factor_required: true}, no session, and POST /auth/two-factor comes next',
        problems: ['UNAUTHENTICATED', 'RATE_LIMITED'],
      }),
      public: true,
    })
    .input(LoginInputSchema)
    .output(LoginAnswerSchema)
    .mutation(login),
  logout: protectedProcedure
    .meta({
      ...rest('POST', '/auth/logout', { status: 204, summary: 'End the current session' }),
      duringEnrolment: true,
    })
    .mutation(logout),
  me: protectedProcedure
    .meta({
      ...rest('GET', '/auth/me', {
        summary: 'Who is signed in, what they may do, and where their second factor stands',
      }),
      duringEnrolment: true,
    })
    .output(AuthSessionSchema)
    .query(({ ctx }) => toAuthSession(ctx.actor)),
  sessions: protectedProcedure
    .meta(rest('GET', '/auth/sessions', { summary: 'Your signed-in sessions still in use, the current one marked' }))
    .output(SessionListSchema)
    .query(listOwnSessions),
  revokeSession: protectedProcedure
    .meta(
      rest('DELETE', '/auth/sessions/{sessionId}', {
        status: 204,
        summary: 'End one of your sessions, at once (the current one: sign out)',
        problems: ['NOT_FOUND'],
      }),
    )
    .input(SessionIdInputSchema)
    .mutation(revokeOwnSession),
  revokeOtherSessions: protectedProcedure
    .meta(
      rest('DELETE', '/auth/sessions', { summary: 'End all your sessions but the current one; says how many ended' }),
    )
    .output(SessionsRevokedSchema)
    .mutation(revokeOtherSessions),
});
