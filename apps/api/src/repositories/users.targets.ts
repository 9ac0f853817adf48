import type { Transaction } from 'sequelize';
import type { Actor } from '../auth/actor.js';
import type { Database } from '../db/database.js';
import type { User } from '../db/models/index.js';
import { notFound } from '../errors.js';
import { permissionsBeyond } from './held-permissions.js';
import type { Target } from '../domain/users.rules.js';

const NONE: ReadonlySet<string> = new Set();

export const toTarget = (user: User, permissions: ReadonlySet<string> = NONE): Target => ({
  id: user.id,
  name: user.name,
  is_active: Boolean(user.is_active),
  deleted: user.deleted_at !== null,
  permissions,
});

/** The locked user as the rules see it, with the permissions it holds beyond the actor's. */
export async function targetOf(ctx: { db: Database; actor: Actor }, tx: Transaction, user: User): Promise<Target> {
  const held = await permissionsBeyond(ctx.db, tx, ctx.actor, [user.id]);
  return toTarget(user, held.get(user.id));
}

/** The locked, live user a single-record write acts on: 404 when absent or in the trash. */
export function liveUser(users: Map<number, User>, id: number): User {
  const user = users.get(id);
  if (!user || user.deleted_at) throw notFound('The user');
  return user;
}
