import os from 'node:os';
import path from 'node:path';
import type { ImportOptions, Job } from '@app/contracts';
import { QueryTypes, UniqueConstraintError } from 'sequelize';
import type { Context } from '../../context.js';
import { writeTransaction } from '../../db/transaction.js';
import { loadRoleGrants, roleRefusal, rolesByName } from '../../domain/escalation.js';
import { lackingForJob } from '../../domain/jobs.rules.js';
import { AppError, forbidden } from '../../errors.js';
import { type ImportJobParams, type JobRow, toJob } from '../../jobs/job-rows.js';
import { insertJob, readJob } from '../../jobs/job-store.js';
import { spoolUpload, UploadRefused } from '../../imports/spool.js';
import { recordChange } from '../../journal/journal.js';
import type { Actor } from '../../auth/actor.js';
import { auditOrigin, type WriteContext } from '../users/users.write-support.js';
import { stageFile } from './import-file.js';
import { dropUpload } from '../../imports/prune.js';

type SubmitContext = WriteContext & Pick<Context, 'upload'>;

const MB = 1024 * 1024;

/** An upload refused before it was read, as the answer its sender gets. */
function refusal(err: UploadRefused, maxBytes: number): AppError {
  switch (err.reason) {
    case 'too-large':
      return new AppError('PAYLOAD_TOO_LARGE', err.message, { extra: { limit: maxBytes } });
    case 'media-type':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', err.message);
    default:
      return new AppError('VALIDATION_FAILED', err.message, { errors: { file: [err.message] } });
  }
}

/** The default roles by name → ids, each one the actor may grant (422 unknown, 403 beyond the actor). */
async function defaultRoleIds(ctx: SubmitContext, names: readonly string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const roles = await loadRoleGrants(ctx.db, 'all');
  const named = rolesByName(ctx.actor, new Map(roles.map((r) => [r.name.toLowerCase(), r])), names);
  if ('unknown' in named) {
    const message = `There is no role named "${named.unknown.name}".`;
    throw new AppError('VALIDATION_FAILED', message, {
      errors: { [`defaultRoles.${named.unknown.index}`]: [message] },
    });
  }
  if ('beyond' in named) {
    const message = roleRefusal(named.beyond, named.beyond.missing);
    throw new AppError('FORBIDDEN', message, {
      errors: { defaultRoles: [message] },
      extra: { permission: named.beyond.missing[0] ?? '' },
    });
  }
  return named.ids;
}

/** What the options ask beyond `users.create` (which the route's guard checked): the job's own table. */
function assertOptionsAllowed(actor: Actor, options: ImportOptions) {
  const { mode, activate, restore } = options;
  const lacking = lackingForJob(actor, { kind: 'import', mode, activate, restore });
  if (lacking) throw forbidden(lacking);
}

async function jobByKey(ctx: SubmitContext, key: string): Promise<JobRow | null> {
  const [row] = await ctx.db.sequelize.query<{ id: number | string }>(
    'SELECT id FROM jobs WHERE actor_id = :actorId AND idempotency_key = :key',
    { replacements: { actorId: ctx.actor.id, key }, type: QueryTypes.SELECT },
  );
  return row ? readJob(ctx.db, Number(row.id)) : null;
}

/**
 * POST /users/imports: reads the file into the staging tables and queues the import job (202).
 * A retried upload (same caller, same `Idempotency-Key`) answers the first job and reads nothing;
 * two racing with one key both read, and the unique key keeps the first job (the second's
 * staging is dropped).
 */
export async function submitImport({
  ctx,
  input,
}: {
  ctx: SubmitContext;
  input: ImportOptions;
}): Promise<{ job: Job }> {
  const { db, config } = ctx;
  const upload = ctx.upload;
  if (!upload) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as the body of POST /api/users/imports.');
  }
  assertOptionsAllowed(ctx.actor, input);
  const key = upload.idempotencyKey;
  if (key) {
    const first = await jobByKey(ctx, key);
    if (first) {
      upload.stream.resume();
      return { job: toJob(first) };
    }
  }
  const roleIds = await defaultRoleIds(ctx, input.defaultRoles);
  const maxBytes = config.IMPORT_MAX_MB * MB;
  const dir = config.IMPORT_SPOOL_DIR ?? path.join(os.tmpdir(), 'user-admin-imports');
  const spooled = await spoolUpload(upload, { dir, maxBytes }).catch((err: unknown) => {
    throw err instanceof UploadRefused ? refusal(err, maxBytes) : err;
  });
  let staged: Awaited<ReturnType<typeof stageFile>>;
  try {
    staged = await stageFile(db, config, ctx.actor.id, spooled, input);
  } finally {
    await spooled.remove();
  }
  const params: ImportJobParams = {
    uploadId: staged.uploadId,
    file: staged.file,
    mode: input.mode,
    activate: input.activate,
    restore: input.restore,
    defaultRoles: input.defaultRoles,
    defaultRoleIds: roleIds,
    scopes: ctx.auth?.via === 'token' ? (ctx.auth.scopes === null ? null : [...ctx.auth.scopes]) : null,
    tokenId: ctx.auth?.via === 'token' ? ctx.auth.tokenId : null,
  };
  const origin = auditOrigin(ctx);
  try {
    const id = await writeTransaction(db, async (tx) => {
      const jobId = await insertJob(db, tx, {
        kind: 'import',
        operation: input.mode,
        params,
        dryRun: input.dryRun,
        total: staged.file.rows,
        actorId: origin.actorId,
        via: origin.via ?? null,
        ip: origin.ip,
        requestId: origin.requestId,
        idempotencyKey: key,
      });
      await db.sequelize.query('UPDATE import_uploads SET job_id = :jobId WHERE id = :uploadId', {
        replacements: { jobId, uploadId: staged.uploadId },
        transaction: tx,
      });
      await recordChange(db, tx, {
        ...origin,
        action: 'job.submit',
        targetType: 'job',
        targetIds: [jobId],
        context: {
          kind: 'import',
          operation: input.mode,
          dryRun: input.dryRun,
          total: staged.file.rows,
          file: { name: staged.file.name, bytes: staged.file.bytes, format: staged.file.format },
        },
      });
      return jobId;
    });
    const row = await readJob(db, id);
    if (!row) throw new Error(`job ${id} vanished after it was created`);
    return { job: toJob(row) };
  } catch (err) {
    await dropUpload(db, staged.uploadId);
    if (key && err instanceof UniqueConstraintError) {
      const first = await jobByKey(ctx, key);
      if (first) return { job: toJob(first) };
    }
    throw err;
  }
}
