import type { Transaction } from 'sequelize';
import { auditOriginOf } from '../../audit/audit.js';
import { AppError, notFound } from '../../errors.js';
import type { User } from '../../db/models/index.js';
import type { Actor } from '../../auth/actor.js';
import type { Context } from '../../trpc/context.js';
import { permissionsBeyond } from './users.held-permissions.js';
import type { Target, Violation } from './users.rules.js';

/**
 * What a write handler needs from its caller: the API's request context, or the command line's
 * (`operatorContext`), which acts with every permission and is recorded as `source: 'cli'`.
 */
export type WriteContext = Pick<Context, 'db' | 'config' | 'ip' | 'requestId' | 'auth'> & {
  actor: Actor;
  source?: 'cli';
};

const NONE: ReadonlySet<string> = new Set();

export const toTarget = (user: User, permissions: ReadonlySet<string> = NONE): Target => ({
  id: user.id,
  name: user.name,
  is_active: Boolean(user.is_active),
  deleted: user.deleted_at !== null,
  permissions,
});

/** The locked user as the rules see it, with the permissions it holds beyond the actor's. */
export async function targetOf(ctx: WriteContext, tx: Transaction, user: User): Promise<Target> {
  const held = await permissionsBeyond(ctx.db, tx, ctx.actor, [user.id]);
  return toTarget(user, held.get(user.id));
}

/** A single-record route refuses with the rule's own code (422). */
export function refuse(violation: Violation): never {
  throw new AppError(violation.code, violation.message);
}

/** The locked, live user a single-record write acts on: 404 when absent or in the trash. */
export function liveUser(users: Map<number, User>, id: number): User {
  const user = users.get(id);
  if (!user || user.deleted_at) throw notFound('The user');
  return user;
}

/** Who did it, from where: the audit context of a request. */
export const auditOrigin = (ctx: WriteContext) => auditOriginOf(ctx);
