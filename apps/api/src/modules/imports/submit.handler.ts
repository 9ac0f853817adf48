import os from 'node:os';
import path from 'node:path';
import type { ImportOptions, Job } from '@app/contracts';
import type { Context, UploadBody, HandlerCall } from '../../context.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { roleRefusal, rolesByKey, rolesByName } from '../../domain/escalation.js';
import { importRefusal } from '../../domain/imports.rules.js';
import { AppError } from '../../errors.js';
import type { ImportJobParams } from '../../jobs/job-rows.js';
import { answerJob } from '../../jobs/job-target.js';
import { submitJob } from '../../jobs/job-submit.js';
import { spoolUpload, UploadRefused } from '../../imports/spool.js';
import type { Actor } from '../../auth/actor.js';
import type { HandlerContext } from '../../context.js';
import { stageFile } from './import-file.js';
import { visibleDefinitionsOf } from '../attributes/attribute-values.repository.js';
import {
  answerRetry,
  claimKey,
  idempotencyKeyOf,
  jobByKey,
  keyInUse,
  payloadFingerprint,
  releaseKey,
} from './idempotency.js';
import { dropUpload } from '../../imports/prune.js';

type SubmitContext = HandlerContext & Pick<Context, 'upload'>;

const MB = 1024 * 1024;

/** An upload refused before it was read, as the answer its sender gets. */
function refusal(err: UploadRefused, maxBytes: number): AppError {
  switch (err.reason) {
    case 'too-large':
      return new AppError('PAYLOAD_TOO_LARGE', err.message, { extra: { limit: maxBytes } });
    case 'media-type':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', err.message);
    case 'malformed':
      return new AppError('BAD_REQUEST', err.message);
    default:
      return new AppError('VALIDATION_FAILED', err.message, { errors: { file: [err.message] } });
  }
}

/** The default roles by name → ids, each one the actor may grant (422 unknown, 403 beyond the actor). */
async function defaultRoleIds(ctx: SubmitContext, names: readonly string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const roles = await loadRoleGrants(ctx.db, 'all');
  const named = rolesByName(ctx.actor, rolesByKey(roles), names);
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
  const refusal = importRefusal(actor, { mode, activate, restore });
  if (refusal) throw new AppError(refusal.code, refusal.message, { extra: { permission: refusal.permission } });
}

/** The upload written to disk (its SHA-256 taken on the way), or the answer refusing it. */
async function spool(ctx: SubmitContext, upload: UploadBody) {
  const { config } = ctx;
  const maxBytes = config.IMPORT_MAX_MB * MB;
  const dir = config.IMPORT_SPOOL_DIR ?? path.join(os.tmpdir(), 'user-admin-imports');
  return spoolUpload(upload, { dir, maxBytes }).catch((err: unknown) => {
    throw err instanceof UploadRefused ? refusal(err, maxBytes) : err;
  });
}

/**
 * A retry of a request already answered: the first job when its file and options are the
 * same (the file is spooled to be compared, and not read), 422 when they are not.
 */
async function retried(ctx: SubmitContext, upload: UploadBody, input: ImportOptions, first: KeyedJob) {
  const spooled = await spool(ctx, upload);
  await spooled.remove();
  return { job: await answerJob(ctx.db, ctx.actor, answerRetry(first, payloadFingerprint(spooled.sha256, input))) };
}

type KeyedJob = NonNullable<Awaited<ReturnType<typeof jobByKey>>>;

/**
 * POST /users/imports: reads the file into the staging tables and queues the import job (202).
 * With an `Idempotency-Key` (per caller; see idempotency.ts): a retry with the same file and
 * options answers the first job, reading nothing; another payload under the key is 422; a second
 * request while the first is still being read is 409 (the key is claimed until the job is
 * queued, in the transaction that queues it, or the request fails).
 */
export async function submitImport({ ctx, input }: HandlerCall<ImportOptions, SubmitContext>): Promise<{ job: Job }> {
  const { db } = ctx;
  const upload = ctx.upload;
  if (!upload) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as the body of POST /api/users/imports.');
  }
  const key = idempotencyKeyOf(upload.idempotencyKey);
  assertOptionsAllowed(ctx.actor, input);
  if (key === null) return receive(ctx, upload, input, null);
  const first = await jobByKey(db, ctx.actor.id, key);
  if (first) return retried(ctx, upload, input, first);
  if (!(await claimKey(db, ctx.actor.id, key))) {
    // The holder may have queued its job since the first look.
    const queued = await jobByKey(db, ctx.actor.id, key);
    if (queued) return retried(ctx, upload, input, queued);
    upload.stream.resume();
    throw keyInUse();
  }
  try {
    return await receive(ctx, upload, input, key);
  } finally {
    // Gone already when the job was queued (in its transaction); here for a request that failed.
    await releaseKey(db, ctx.actor.id, key);
  }
}

/** Reads the file, stages its lines and queues the job, the key's claim released with it. */
async function receive(
  ctx: SubmitContext,
  upload: UploadBody,
  input: ImportOptions,
  key: string | null,
): Promise<{ job: Job }> {
  const { db, config } = ctx;
  const roleIds = await defaultRoleIds(ctx, input.defaultRoles);
  const spooled = await spool(ctx, upload);
  let staged: Awaited<ReturnType<typeof stageFile>>;
  try {
    // A column matches an attribute the caller may see; a sensitive one it may not is unknown.
    const attributes = await visibleDefinitionsOf(db, ctx.actor);
    staged = await stageFile(db, config, ctx.actor.id, spooled, input, attributes);
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
  try {
    return await submitJob(ctx, async () => ({
      kind: 'import',
      operation: input.mode,
      params,
      dryRun: input.dryRun,
      total: staged.file.rows,
      idempotencyKey: key,
      idempotencyFingerprint: key === null ? null : payloadFingerprint(spooled.sha256, input),
      mark: async (tx, jobId) => {
        if (key !== null) await releaseKey(db, ctx.actor.id, key, tx);
        await db.sequelize.query('UPDATE import_uploads SET job_id = :jobId WHERE id = :uploadId', {
          replacements: { jobId, uploadId: staged.uploadId },
          transaction: tx,
        });
      },
      audit: {
        kind: 'import',
        operation: input.mode,
        dryRun: input.dryRun,
        total: staged.file.rows,
        file: { name: staged.file.name, bytes: staged.file.bytes, format: staged.file.format },
      },
    }));
  } catch (err) {
    await dropUpload(db, staged.uploadId);
    throw err;
  }
}
