import type { Permission } from '@app/contracts';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { type Actor, type AuthMethod, loadActor } from '../auth/actor.js';
import { tokenPermissions } from '../auth/api-tokens.js';
import { firstLacking } from '../domain/jobs.rules.js';
import type { JobRow } from './job-rows.js';
import type { HandlerContext } from '../context.js';

/**
 * Who a job acts as, at this chunk: its submitter as the database sees them now (a deactivated
 * one stops the job), within the token's scopes when it came through a token, still holding
 * every permission the job needs. Recorded in every chunk's audit row as the submitter, via the
 * same door.
 */
export async function jobActor(
  db: Database,
  config: AppConfig,
  job: JobRow,
  permissions: readonly Permission[],
  origin: { scopes?: string[] | null; tokenId?: number | null },
): Promise<HandlerContext | { fail: string }> {
  const owner = job.actor_id === null ? null : await loadActor(db, { userId: Number(job.actor_id) });
  if (!owner) return { fail: 'The user who started the job can no longer act (deactivated or deleted).' };
  const scopes = origin.scopes ?? null;
  const actor: Actor = { ...owner, permissions: tokenPermissions(owner.permissions, scopes) };
  const lacking = firstLacking(actor, permissions);
  if (lacking) return { fail: `The user who started the job no longer holds the ${lacking} permission.` };
  const auth: AuthMethod | null =
    job.via_kind === 'token'
      ? { via: 'token', tokenId: origin.tokenId ?? 0, tokenName: job.via_name ?? '', scopes }
      : job.via_kind === 'session'
        ? { via: 'session', sessionId: '' }
        : null;
  return { db, config, actor, auth, ip: job.ip ?? '', requestId: job.request_id ?? '' };
}
