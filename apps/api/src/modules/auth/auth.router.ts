import { AuthSessionSchema, LoginInputSchema } from '@app/contracts';
import { publicProcedure, rest, router } from '../../trpc/init.js';
import { protectedProcedure } from '../../trpc/procedures.js';
import { toAuthSession } from './auth.session.js';
import { login } from './login.handler.js';
import { logout } from './logout.handler.js';

export const authRouter = router({
  login: publicProcedure
    .meta({
      ...rest('POST', '/auth/login', {
        summary: 'Sign in; sets the session cookie',
        problems: ['UNAUTHENTICATED', 'RATE_LIMITED'],
      }),
      public: true,
    })
    .input(LoginInputSchema)
    .output(AuthSessionSchema)
    .mutation(login),
  logout: protectedProcedure
    .meta(rest('POST', '/auth/logout', { status: 204, summary: 'End the current session' }))
    .mutation(logout),
  me: protectedProcedure
    .meta(rest('GET', '/auth/me', { summary: 'Who is signed in, and what they may do' }))
    .output(AuthSessionSchema)
    .query(({ ctx }) => toAuthSession(ctx.actor)),
});
