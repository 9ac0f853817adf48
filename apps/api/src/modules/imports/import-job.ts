import type { Permission } from '@app/contracts';
import type { Transaction } from 'sequelize';
import type { AppConfig } from '../../config.js';
import type { Database } from '../../db/database.js';
import { loadRoleGrants } from '../../repositories/role-grants.js';
import { permissionsBeyond } from '../../repositories/held-permissions.js';
import { jobPermissions } from '../../domain/jobs.rules.js';
import { rolesByKey } from '../../domain/escalation.js';
import { activeAdminsInPlay, lockAdministratorChanges, roleIdByName } from '../../repositories/users.locks.js';
import { type ImportJobParams, type ImportJobState, type JobRow, parseJson } from '../../jobs/job-rows.js';
import type { JobItem } from '../../jobs/job-store.js';
import type { JobKindRunner } from '../../jobs/runner.js';
import { recordJobEnd } from '../../jobs/job-end.js';
import { jobActor } from '../../jobs/job-actor.js';
import type { HandlerContext } from '../../context.js';
import { type Decision, decideChunk, type Settings } from './import.decide.js';
import { type LineProblem, validateLine, type ValidLine } from './import.lines.js';
import { accountsByEmail, accountsById, changedByImport, externalIdOwners } from './imports.accounts.js';
import { firstLines, linesAfter } from './imports.staging.js';
import { judgeChunkAttributes } from './import.attributes.js';
import { applyDecisions } from './import.apply.js';

const EMPTY_STATE: ImportJobState = { outcomes: { create: 0, update: 0, unchanged: 0, skip: 0, error: 0 }, fields: {} };

const permissionsFor = (params: ImportJobParams): Permission[] =>
  jobPermissions({ kind: 'import', mode: params.mode, activate: params.activate, restore: params.restore });

/** The facts a chunk's decisions need, read in the chunk's transaction (locked in a real run). */
async function chunkFacts(
  ctx: HandlerContext,
  tx: Transaction,
  params: ImportJobParams,
  valid: ValidLine[],
  run: { lock: boolean; adminsGone: number; jobId: number },
) {
  const { db } = ctx;
  const { lock } = run;
  const emails = valid.map((l) => l.email);
  const lineIds = valid.flatMap((l) => (l.id === null ? [] : [l.id]));
  const externalIds = valid.flatMap((l) => (l.externalId === null ? [] : [l.externalId]));
  const [accounts, byId, firsts, owners] = [
    await accountsByEmail(db, tx, emails, lock),
    await accountsById(db, tx, lineIds, lock),
    await firstLines(db, tx, params.uploadId, emails),
    await externalIdOwners(db, tx, externalIds),
  ];
  const named = new Map([...accounts.values(), ...byId.values()].map((a) => [a.id, a]));
  const ids = [...named.keys()];
  // Only a real run has written earlier chunks: a dry run's lines are judged against the accounts as they are.
  const changedEarlier = lock ? await changedByImport(db, tx, run.jobId, ids) : new Map<number, number>();
  const adminRoleName = ctx.config.users.activation.adminRoleName;
  const adminRoleId = await roleIdByName(db, tx, adminRoleName);
  // The administrators' turn is taken only when an existing administrator is named at all.
  const namesAdmin = adminRoleId !== null && [...named.values()].some((a) => a.roleIds.includes(adminRoleId));
  if (namesAdmin && lock) await lockAdministratorChanges(db, tx);
  const admins = namesAdmin ? await activeAdminsInPlay(db, tx, adminRoleId, ids, run.adminsGone) : new Set<number>();
  return {
    facts: {
      accounts,
      byId,
      changedEarlier,
      firstLines: firsts,
      externalIdOwners: owners,
      beyond: await permissionsBeyond(db, tx, ctx.actor, ids),
      admins,
    },
    adminRoleId,
  };
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
      const env = { actor: ctx.actor, roles: rolesByKey(grants) };
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
      const { facts, adminRoleId } = await chunkFacts(ctx, tx, params, valid, {
        lock: !dryRun,
        adminsGone,
        jobId: Number(job.id),
      });
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
