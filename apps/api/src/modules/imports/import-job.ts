import { attributePath, type Permission } from '@app/contracts';
import { type Transaction, UniqueConstraintError } from 'sequelize';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { RetryTransaction } from '../../db/transaction.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { permissionsBeyond } from '../../repositories/held-permissions.js';
import { jobPermissions } from '../../domain/jobs.rules.js';
import { activeAdminsInPlay, lockAdministratorChanges, roleIdByName } from '../../repositories/users.locks.js';
import { type ImportJobParams, type ImportJobState, type JobRow, parseJson } from '../../jobs/job-rows.js';
import type { JobItem } from '../../jobs/job-store.js';
import type { JobKindRunner } from '../../jobs/runner.js';
import { diff, recordChange, recordChanges } from '../../journal/journal.js';
import { recordJobEnd } from '../../jobs/job-end.js';
import { jobActor } from '../../jobs/job-actor.js';
import { auditOriginOf } from '../../journal/journal.js';
import type { HandlerContext } from '../../context.js';
import { revokeCredentials } from '../users/users.batch-repository.js';
import { withStatsDeferred } from '../users/users.stats-deferral.js';
import { type Decision, decideChunk, type Settings } from './import.decide.js';
import { type LineProblem, newAccountHash, validateLine, type ValidLine } from './import.lines.js';
import {
  accountsByEmail,
  externalIdOwners,
  insertAccounts,
  insertRoleAssignments,
  recordImportChanges,
  updateAccount,
} from './imports.accounts.js';
import { firstLines, linesAfter } from './imports.staging.js';
import { judgeChunkAttributes, sensitivityOf, storeValues } from './import.attributes.js';

/** Stores values, a unique value taken meanwhile by another door sending the chunk to be decided again. */
async function storeOrRetry(...args: Parameters<typeof storeValues>) {
  try {
    await storeValues(...args);
  } catch (err) {
    if (err instanceof UniqueConstraintError)
      throw new RetryTransaction('a unique attribute value was taken meanwhile');
    throw err;
  }
}

const EMPTY_STATE: ImportJobState = { outcomes: { create: 0, update: 0, unchanged: 0, skip: 0, error: 0 }, fields: {} };

const permissionsFor = (params: ImportJobParams): Permission[] =>
  jobPermissions({ kind: 'import', mode: params.mode, activate: params.activate, restore: params.restore });

/** The facts a chunk's decisions need, read in the chunk's transaction (locked in a real run). */
async function chunkFacts(
  ctx: HandlerContext,
  tx: Transaction,
  params: ImportJobParams,
  valid: ValidLine[],
  run: { lock: boolean; adminsGone: number },
) {
  const { db } = ctx;
  const { lock } = run;
  const emails = valid.map((l) => l.email);
  const externalIds = valid.flatMap((l) => (l.externalId === null ? [] : [l.externalId]));
  const [accounts, firsts, owners] = [
    await accountsByEmail(db, tx, emails, lock),
    await firstLines(db, tx, params.uploadId, emails),
    await externalIdOwners(db, tx, externalIds),
  ];
  const ids = [...accounts.values()].map((a) => a.id);
  const adminRoleName = ctx.config.users.activation.adminRoleName;
  const adminRoleId = await roleIdByName(db, tx, adminRoleName);
  // The administrators' turn is taken only when an existing administrator is named at all.
  const namesAdmin = adminRoleId !== null && [...accounts.values()].some((a) => a.roleIds.includes(adminRoleId));
  if (namesAdmin && lock) await lockAdministratorChanges(db, tx);
  const admins = namesAdmin ? await activeAdminsInPlay(db, tx, adminRoleId, ids, run.adminsGone) : new Set<number>();
  return {
    facts: {
      accounts,
      firstLines: firsts,
      externalIdOwners: owners,
      beyond: await permissionsBeyond(db, tx, ctx.actor, ids),
      admins,
    },
    adminRoleId,
  };
}

type Created = Extract<Decision, { outcome: 'create' }>;
type Updated = Extract<Decision, { outcome: 'update' }>;

/** Writes a chunk's decisions: new accounts and their roles, updates, their audit, events and undo record. */
async function applyDecisions(
  ctx: HandlerContext,
  tx: Transaction,
  jobId: number,
  decisions: Decision[],
  roleNames: ReadonlyMap<number, string>,
) {
  const { db } = ctx;
  const now = new Date();
  const creates = decisions.filter((d): d is Created => d.outcome === 'create');
  const updates = decisions.filter((d): d is Updated => d.outcome === 'update');
  const origin = { ...auditOriginOf(ctx), context: { job_id: jobId } };
  const undo: Parameters<typeof recordImportChanges>[3][number][] = [];
  if (creates.length) {
    const accounts = creates.map((c) => ({
      name: c.line.name as string,
      email: c.line.email,
      passwordHash: newAccountHash(c.line),
      isActive: c.isActive,
      externalId: c.line.externalId,
    }));
    const delta = { total: creates.length, active: creates.filter((c) => c.isActive).length, trashed: 0 };
    let ids = new Map<string, number>();
    try {
      await withStatsDeferred(db, tx, delta, async () => {
        ids = await insertAccounts(db, tx, accounts, now);
      });
    } catch (err) {
      // Another door created one of these e-mails since the chunk read them: decide again.
      if (err instanceof UniqueConstraintError) throw new RetryTransaction('an account was created meanwhile');
      throw err;
    }
    const created = creates.map((c) => ({ c, id: ids.get(c.line.email) as number }));
    await insertRoleAssignments(
      db,
      tx,
      created.flatMap(({ c, id }) => c.roleIds.map((r) => [id, r] as const)),
    );
    const given = created.flatMap(({ c, id }) =>
      c.line.attributes.filter((w) => w.value !== null).map((write) => ({ userId: id, write })),
    );
    await storeOrRetry(db, tx, given, { replacing: false });
    // One audit row per new account, with its values (as a form's creation records them) and the
    // line it came from; written in multi-row statements, with one user.created event each.
    await recordChanges(
      db,
      tx,
      created.map(({ c, id }) => ({
        ...origin,
        action: 'user.create' as const,
        targetType: 'user',
        targetIds: [id],
        changes: diff(null, {
          name: c.line.name,
          email: c.line.email,
          is_active: c.isActive,
          roles: c.roleIds.map((r) => roleNames.get(r) ?? String(r)).sort(),
          ...(c.line.externalId ? { external_id: c.line.externalId } : {}),
          ...Object.fromEntries(c.line.attributes.map((w) => [attributePath(w.definition.key), w.value])),
        }),
        context: {
          job_id: jobId,
          line: c.line.line,
          ...sensitivityOf(
            c.line.attributes.filter((w) => w.value !== null),
            c.line.attributes.map((w) => attributePath(w.definition.key)),
          ),
        },
      })),
    );
    for (const { c, id } of created)
      undo.push({ userId: id, change: 'created', line: c.line.line, lockVersion: 0, before: null });
  }
  for (const u of updates) {
    const activeDelta = u.set.is_active === undefined ? 0 : u.set.is_active ? 1 : -1;
    const restoring = Boolean(u.set.restore);
    const wasActive = u.account.is_active;
    const nowActive = u.set.is_active ?? wasActive;
    const delta = restoring
      ? { total: 1, active: nowActive ? 1 : 0, trashed: -1 }
      : { total: 0, active: activeDelta, trashed: 0 };
    await withStatsDeferred(db, tx, delta, () => updateAccount(db, tx, u.account.id, u.set, u.roles, now));
    const before = { ...u.before, ...(restoring ? { deleted: true } : {}) };
    const after = { ...u.after, ...(restoring ? { deleted: false } : {}) };
    await recordChange(db, tx, {
      ...origin,
      action: 'user.update',
      targetType: 'user',
      targetIds: [u.account.id],
      changes: diff(before, after),
      context: { job_id: jobId, line: u.line.line, ...sensitivityOf(u.set.attributes ?? [], Object.keys(after)) },
    });
    undo.push({
      userId: u.account.id,
      change: 'updated',
      line: u.line.line,
      lockVersion: u.account.lock_version + 1,
      before,
    });
  }
  const changedValues = updates.flatMap((u) =>
    (u.set.attributes ?? []).map((write) => ({ userId: u.account.id, write })),
  );
  await storeOrRetry(db, tx, changedValues, { replacing: true });
  // A deactivated or re-deleted account loses its sessions and tokens at once, as with any door.
  const deactivated = updates.filter((u) => u.set.is_active === false).map((u) => u.account.id);
  if (deactivated.length) await revokeCredentials(db, tx, deactivated);
  await recordImportChanges(db, tx, jobId, undo);
}

/** How many active administrators a chunk's updates take away (deactivated, or the role removed). */
function adminsTakenAway(decisions: Decision[], adminRoleId: number | null): number {
  if (adminRoleId === null) return 0;
  return decisions.filter(
    (d) =>
      d.outcome === 'update' &&
      d.account.is_active &&
      !d.account.deleted &&
      d.account.roleIds.includes(adminRoleId) &&
      (d.set.is_active === false || (d.roles?.removed.includes(adminRoleId) ?? false)),
  ).length;
}

/** The report's lines for a chunk's skipped and failed lines. */
const reportItems = (decisions: Decision[]): JobItem[] =>
  decisions.flatMap((d) =>
    d.outcome === 'skip' || d.outcome === 'error'
      ? [
          {
            userId: d.userId,
            email: d.email,
            outcome: d.outcome === 'skip' ? 'skipped' : 'failed',
            code: d.problem.code,
            message: d.problem.message,
            line: d.line,
          } satisfies JobItem,
        ]
      : [],
  );

function tally(state: ImportJobState, decisions: Decision[]) {
  const outcomes = { ...state.outcomes };
  const fields = { ...state.fields };
  const counts: Record<string, number> = {};
  for (const d of decisions) {
    outcomes[d.outcome] = (outcomes[d.outcome] ?? 0) + 1;
    if (d.outcome === 'update') for (const f of Object.keys(d.after)) fields[f] = (fields[f] ?? 0) + 1;
    if (d.outcome === 'skip' || d.outcome === 'error') counts[d.problem.code] = (counts[d.problem.code] ?? 0) + 1;
  }
  return { state: { ...state, outcomes, fields }, counts };
}

/** The `import` kind for the job runner: one chunk of the staged lines per call, in line order. */
export function importJobKind(db: Database, config: AppConfig): JobKindRunner {
  return {
    async chunk(job: JobRow, tx, size) {
      const params = parseJson<ImportJobParams | null>(job.params, null);
      if (!params) return { fail: "The job's stored parameters cannot be read." };
      const ctx = await jobActor(db, config, job, permissionsFor(params), params);
      if ('fail' in ctx) return ctx;
      const after = job.cursor_id === null ? 0 : Number(job.cursor_id);
      const lines = await linesAfter(db, tx, params.uploadId, after, size);
      const empty = { cursor: after, processed: 0, changed: 0, skipped: 0, failed: 0, counts: {} };
      if (lines.length === 0) return { progress: empty, items: [], done: true };
      const dryRun = Boolean(job.dry_run);
      const grants = await loadRoleGrants(db, 'all', tx);
      const env = { actor: ctx.actor, roles: new Map(grants.map((g) => [g.name.toLowerCase(), g])) };
      const judged = lines.map((l) => {
        const v = validateLine(l, env);
        return 'code' in v
          ? ({ ...v, line: l.line, email: l.record.email ?? '' } as LineProblem & { line: number; email: string })
          : v;
      });
      const valid = judged.filter((j): j is ValidLine => !('code' in j));
      const before = { ...EMPTY_STATE, ...parseJson<Partial<ImportJobState>>(job.state ?? '{}', {}) };
      // A dry run writes nothing, so it counts the administrators its earlier chunks would have
      // taken away, and the last-administrator rule judges as the real run will.
      const adminsGone = dryRun ? (before.adminsGone ?? 0) : 0;
      const { facts, adminRoleId } = await chunkFacts(ctx, tx, params, valid, { lock: !dryRun, adminsGone });
      const settings: Settings = {
        mode: params.mode,
        activate: params.activate,
        restore: params.restore,
        defaultRoleIds: params.defaultRoleIds,
        adminRoleId,
        rules: config.users,
      };
      // Custom attribute cells are judged with the accounts the lines name: a new one must get
      // every required attribute, and a unique value must be free.
      const attributes = await judgeChunkAttributes(ctx, tx, valid, facts, params);
      const withAttributes = judged.map((j) => {
        const a = 'code' in j ? undefined : attributes.judged.get(j.line);
        if (a === undefined || 'code' in j) return j;
        return Array.isArray(a) ? { ...j, attributes: a } : { ...a, line: j.line, email: j.email };
      });
      const decisions = decideChunk(
        ctx.actor,
        withAttributes,
        { ...facts, roles: new Map(grants.map((g) => [g.id, g])), attributeValues: attributes.held },
        settings,
      );
      if (!dryRun) await applyDecisions(ctx, tx, Number(job.id), decisions, new Map(grants.map((g) => [g.id, g.name])));
      const tallied = tally(before, decisions);
      const { counts } = tallied;
      const state = dryRun
        ? { ...tallied.state, adminsGone: adminsGone + adminsTakenAway(decisions, adminRoleId) }
        : tallied.state;
      const changed = decisions.filter((d) => d.outcome === 'create' || d.outcome === 'update').length;
      return {
        progress: {
          cursor: lines[lines.length - 1]?.line ?? after,
          processed: lines.length,
          changed,
          skipped: decisions.filter((d) => d.outcome === 'skip').length,
          failed: decisions.filter((d) => d.outcome === 'error').length,
          counts,
          state,
        },
        items: reportItems(decisions),
        done: lines.length < size,
      };
    },
    async finished(job, status, tx) {
      await recordJobEnd(db, tx, job, status, (state) =>
        job.dry_run || status === 'failed'
          ? state
          : { ...state, undoUntil: new Date(Date.now() + config.IMPORT_UNDO_HOURS * 3_600_000).toISOString() },
      );
    },
  };
}
