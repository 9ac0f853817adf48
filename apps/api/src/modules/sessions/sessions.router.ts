import { IdInputSchema, SessionIdInputSchema, SessionListSchema, SessionsRevokedSchema } from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { listSessionsFor } from './list-for.handler.js';
import { revokeAllSessionsFor } from './revoke-all-for.handler.js';
import { revokeSessionFor } from './revoke-for.handler.js';

/** Other users' sessions, for administrators: users.update and within the privilege ceiling. One's own are under `auth`. */
export const sessionsRouter = router({
  listFor: can('users.update')
    .meta(
      rest('GET', '/users/{id}/sessions', {
        summary: "A user's signed-in sessions still in use",
        problems: ['OUTRANKED'],
      }),
    )
    .input(IdInputSchema)
    .output(SessionListSchema)
    .query(listSessionsFor),
  revokeFor: can('users.update')
    .meta(
      rest('DELETE', '/users/{id}/sessions/{sessionId}', {
        status: 204,
        summary: "End one of a user's sessions, at once",
        problems: ['OUTRANKED'],
      }),
    )
    .input(IdInputSchema)
    .input(SessionIdInputSchema)
    .mutation(revokeSessionFor),
  revokeAllFor: can('users.update')
    .meta(
      rest('DELETE', '/users/{id}/sessions', {
        summary: 'End every session of a user, at once; says how many ended',
        problems: ['OUTRANKED'],
      }),
    )
    .input(IdInputSchema)
    .output(SessionsRevokedSchema)
    .mutation(revokeAllSessionsFor),
});
