import { QueryTypes, type Transaction } from 'sequelize';
import type { BulkBatchOutcome } from '../../bulk/bulk-declaration.js';
import type { HandlerContext } from '../../context.js';
import type { Database } from '../../db/database.js';
import { type InviteCandidate, planInvites } from '../../domain/users.invite.js';
import { chunks } from '../../repositories/chunks.js';
import { permissionsBeyond } from '../../repositories/held-permissions.js';
import { inviteUsers } from '../invitations/invitations.issue.js';

/**
 * One batch of a bulk invitation (POST /users/bulk `operation: invite`, over ids or as a job's
 * chunk) inside the caller's transaction: each user meets the single invite route's rule
 * (`inviteRefusal`), and those it allows are invited together — one link INSERT, one UPDATE of
 * their invitation columns, one outbox INSERT and one audit row per few hundred users.
 */

type Invitee = InviteCandidate & { email: string };

interface InviteeRow {
  id: number | string;
  name: string;
  email: string;
  is_active: unknown;
  deleted_at: unknown;
  last_sign_in_at: unknown;
}

const NO_PERMISSIONS: ReadonlySet<string> = new Set();

/**
 * The rows a batch judges, deleted ones included, in id order (one lock order for every writer);
 * locked unless a dry run, which changes nothing and so holds no lock.
 */
async function readInvitees(db: Database, tx: Transaction, ids: readonly number[], lock: boolean) {
  const found = new Map<number, Invitee>();
  const forUpdate = lock && db.dialect === 'mysql' ? ' FOR UPDATE' : '';
  for (const part of chunks([...ids].sort((a, b) => a - b))) {
    const rows = await db.sequelize.query<InviteeRow>(
      `SELECT id, name, email, is_active, deleted_at, last_sign_in_at FROM users WHERE id IN (:ids) ORDER BY id${forUpdate}`,
      { replacements: { ids: part }, type: QueryTypes.SELECT, transaction: tx },
    );
    for (const r of rows) {
      const id = Number(r.id);
      found.set(id, {
        id,
        name: r.name,
        email: r.email,
        is_active: Boolean(Number(r.is_active)),
        deleted: r.deleted_at !== null,
        signedIn: r.last_sign_in_at !== null,
        permissions: NO_PERMISSIONS,
      });
    }
  }
  return found;
}

export async function runInviteBatch(
  ctx: HandlerContext,
  tx: Transaction,
  ids: readonly number[],
  options: { dryRun: boolean; context?: Record<string, unknown> | undefined },
): Promise<BulkBatchOutcome> {
  const { db } = ctx;
  const users = await readInvitees(db, tx, ids, !options.dryRun);
  // Only the permissions the inviter lacks can make a user outrank it (the ceiling).
  for (const [id, permissions] of await permissionsBeyond(db, tx, ctx.actor, [...users.keys()])) {
    users.set(id, { ...(users.get(id) as Invitee), permissions });
  }
  const { invited, skipped } = planInvites(ctx.actor, ids, users);
  if (!options.dryRun && invited.length > 0) {
    await inviteUsers(
      ctx,
      tx,
      invited.map((id) => users.get(id) as Invitee),
      {
        bulk: true,
        requested: ids.length,
        skipped: skipped.map((s) => ({ id: s.id, code: s.code })),
        ...options.context,
      },
    );
  }
  return { affected: invited, skipped, unchanged: [] };
}
