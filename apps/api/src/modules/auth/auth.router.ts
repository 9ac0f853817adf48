import { AuthSessionSchema, LoginInputSchema } from '@app/contracts';
import { publicProcedure, rest, router } from '../../trpc/init.js';
import { protectedProcedure } from '../../trpc/procedures.js';
import { toAuthSession } from './auth.session.js';
import { login } from './login.handler.js';
import { logout } from './logout.handler.js';

export const authRouter = router({
  login: publicProcedure
    .meta({ ...rest('POST', '/auth/login'), public: true })
    .input(LoginInputSchema)
    .mutation(login),
  logout: protectedProcedure.meta(rest('POST', '/auth/logout', { status: 204 })).mutation(logout),
  me: protectedProcedure.meta(rest('GET', '/auth/me')).query(({ ctx }) => toAuthSession(ctx.actor)),
});
