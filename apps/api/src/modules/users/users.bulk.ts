import {
  type BulkInput,
  type BulkOperation,
  type BulkReport,
  type BulkSkipCode,
  isBulkRoleOperation,
  type UsersListQuery,
} from '@app/contracts';
import { QueryTypes } from 'sequelize';
import type { BulkDeclaration } from '../../bulk/bulk-declaration.js';
import { bulkHandler } from '../../bulk/bulk-request.js';
import { codeSentence, mayNamePeople } from '../../domain/disclosure.js';
import type { RoleGrant } from '../../domain/escalation.js';
import { bulkInverse, jobPermissions } from '../../domain/jobs.rules.js';
import { AppError } from '../../errors.js';
import { runBatch } from './bulk.chunk.js';
import { runAttributeBatch } from './bulk.attribute-batch.js';
import {
  assertBulkAttribute,
  auditedAttribute,
  type BulkAttribute,
  recheckBulkAttribute,
  storedAttribute,
} from './bulk.attributes.js';
import { runInviteBatch } from './bulk.invite.js';
import { mailSettings } from '../../mail/settings.js';
import type { HandlerContext } from '../../context.js';
import { assertBulkRole, bulkRole } from './bulk.roles.js';
import { TARGET_COLUMNS, type TargetRow, targetsOf } from './users.batch-repository.js';
import { assertTrashAllowed, countUsers, idWalkHints, usersWhere } from './users.list-query.js';
import { readStats } from './users.read-repository.js';
import type { AttributeScope } from '../../domain/attributes.list-query.js';
import { type ScopedUsersQuery, usesAttributes, withAttributeScope } from './users.attributes-query.js';

/**
 * The users list's bulk actions (POST /users/bulk, SPEC §7, §14): delete, restore, purge,
 * (de)activate, give or take a role, invite, set an attribute's value, over ids or every user a list query matches. Each user
 * meets the rules of its single-record route (bulk.chunk.ts); the kit (bulk/) does the rest.
 */

/** The request-wide arguments: the status to set, the role to give or take, whether invitations go by mail. */
interface UsersBulkArgs {
  active: boolean | null;
  role: RoleGrant | undefined;
  /** invite: whether SMTP_URL is set (null for the other operations). */
  mailed: boolean | null;
  /** setAttribute: the attribute and its value, judged. */
  attribute?: BulkAttribute | undefined;
}

/** A selection's query as a job stores it: its filters and search, as validated at submission. */
interface StoredQuery {
  q: string | null;
  filters: Record<string, unknown>;
  /** Its custom attribute conditions as judged at submission (plain JSON), when it has any. */
  attributeScope?: AttributeScope;
}

/**
 * What a dry-run job carries between chunks: how many administrators its earlier chunks would
 * have taken away (a real run's chunks take them away, so the database says it).
 */
interface DryRunState {
  adminsGone: number;
}

const argsOf = (
  ctx: HandlerContext,
  operation: BulkOperation,
  active: boolean | undefined,
  role: RoleGrant | undefined,
): UsersBulkArgs => ({
  active: operation === 'setActive' ? (active ?? null) : null,
  role,
  mailed: operation === 'invite' ? mailSettings(ctx.config).enabled : null,
});

/** What a job keeps of its arguments. The job's page reads `active`, `roleId` and `roleName` (jobs/job-rows.ts). */
const storedArgs = (args: UsersBulkArgs): Record<string, unknown> => ({
  active: args.active,
  roleId: args.role?.id ?? null,
  roleName: args.role?.name ?? null,
  ...(args.mailed === null ? {} : { mailed: args.mailed }),
  ...(args.attribute ? storedAttribute(args.attribute) : {}),
});

/** What an invite's report says of its links: mailed (so many), or not mailed at all. */
function invitationsSent(ctx: HandlerContext, invited: number) {
  const mailed = mailSettings(ctx.config).enabled;
  return { mailed, sent: mailed ? invited : 0 };
}

export const usersBulk: BulkDeclaration<
  BulkOperation,
  BulkInput,
  UsersListQuery,
  StoredQuery,
  UsersBulkArgs,
  TargetRow,
  BulkReport,
  DryRunState
> = {
  resource: 'users',
  selection: {
    model: (db) => db.models.User,
    allow: (ctx, query) => assertTrashAllowed(ctx.actor, query),
    judge: async (ctx, query) =>
      usesAttributes(query) ? (await withAttributeScope(ctx.db, ctx.actor, query)).query : query,
    // The attribute conditions as judged at submission (attribute ids and value columns): a chunk
    // filters by what the submitter could see then, as every other filter is frozen then.
    freeze: (query: ScopedUsersQuery) => ({
      q: query.q,
      filters: query.filters as Record<string, unknown>,
      ...(query.attributeScope ? { attributeScope: { conditions: query.attributeScope.conditions, sort: null } } : {}),
    }),
    // Stored as validated at submission: its filter values are plain JSON (text, numbers, ISO instants).
    thaw: (stored) =>
      ({
        q: stored.q,
        filters: stored.filters,
        ...(stored.attributeScope ? { attributeScope: stored.attributeScope } : {}),
        page: 1,
        perPage: 1,
        perPageRequested: null,
        sort: 'id',
        dir: 'asc',
        order: [['id', 'asc']],
      }) as unknown as UsersListQuery,
    where: (db, query, bounds) => usersWhere(db, query, bounds),
    columns: TARGET_COLUMNS,
    hints: async (db, query) => idWalkHints(db, query, await readStats(db)),
    count: (db, query) => countUsers(db, query, usersWhere(db, query)),
  },

  async prepare(ctx, tx, input) {
    // A missing role (422) or one beyond the caller (403) refuses the request: nothing is per row.
    const role =
      isBulkRoleOperation(input.operation) && input.role_id !== undefined
        ? await assertBulkRole(ctx, tx, input.role_id)
        : undefined;
    const attribute = input.operation === 'setAttribute' ? await assertBulkAttribute(ctx, tx, input) : undefined;
    return { ...argsOf(ctx, input.operation, input.active, role), attribute };
  },

  store: storedArgs,

  // A sensitive attribute's value stays out of the audit log (it is in each user's change row).
  audited: (args) => (args.attribute ? auditedAttribute(storedArgs(args), args.attribute) : storedArgs(args)),

  async recheck(ctx, tx, stored) {
    const roleId = typeof stored.roleId === 'number' ? stored.roleId : null;
    const role = roleId === null ? undefined : await bulkRole(ctx, tx, roleId);
    if (role instanceof AppError) return { fail: role.message };
    const mailed = typeof stored.mailed === 'boolean' ? stored.mailed : null;
    // The job's report says whether its invitations went by mail: one answer for all its chunks.
    if (mailed !== null && mailed !== mailSettings(ctx.config).enabled) {
      return { fail: 'Mail was turned on or off while the invitations were being sent: submit the job again.' };
    }
    const attribute = 'attribute' in stored ? await recheckBulkAttribute(ctx, tx, stored) : undefined;
    if (attribute && 'fail' in attribute) return attribute;
    return { args: { active: typeof stored.active === 'boolean' ? stored.active : null, role, mailed, attribute } };
  },

  permissions: (operation) => jobPermissions({ kind: 'bulk', operation }),

  async batch(ctx, tx, { operation, args, ids }, options) {
    if (operation === 'invite') {
      return { outcome: await runInviteBatch(ctx, tx, ids, { dryRun: options.dryRun, context: options.context }) };
    }
    if (operation === 'setAttribute') {
      if (!args.attribute) throw new Error('setAttribute needs its attribute');
      const read = options.read ? targetsOf(options.read) : undefined;
      const batchOptions = { dryRun: options.dryRun, context: options.context, read };
      return { outcome: await runAttributeBatch(ctx, tx, args.attribute, ids, batchOptions) };
    }
    const spec = { operation, active: args.active ?? undefined, role: args.role };
    const context = options.context;
    if (!options.dryRun) {
      const outcome = await runBatch(ctx, spec, ids, tx, { dryRun: false, ...(context ? { context } : {}) });
      return { outcome };
    }
    const adminsGone = options.state?.adminsGone ?? 0;
    const read = options.read ? targetsOf(options.read) : undefined;
    const outcome = await runBatch(ctx, spec, ids, tx, {
      dryRun: true,
      adminsGone,
      read,
      ...(context ? { context } : {}),
    });
    return { outcome, state: { adminsGone: adminsGone + outcome.adminsRemoved } };
  },

  report: (ctx, input, { affected, skipped }) => ({
    operation: input.operation,
    dryRun: input.dryRun,
    requested: input.ids?.length ?? 0,
    affected,
    // The caller named the ids; the rules' sentences name the users, for users.view holders only.
    skipped: (mayNamePeople(ctx.actor)
      ? skipped
      : skipped.map((s) => ({ ...s, message: codeSentence(s.code) }))) as BulkReport['skipped'],
    ...(input.operation === 'invite' ? { invitations: invitationsSent(ctx, affected.length) } : {}),
  }),

  /** Report lines for a chunk's skipped users, with the e-mail each had when it was judged. */
  async reportItems(db, tx, skipped) {
    if (skipped.length === 0) return [];
    const rows = await db.sequelize.query<{ id: number | string; email: string }>(
      'SELECT id, email FROM users WHERE id IN (:ids)',
      { replacements: { ids: skipped.map((s) => s.id) }, type: QueryTypes.SELECT, transaction: tx },
    );
    const emails = new Map(rows.map((r) => [Number(r.id), r.email]));
    return skipped.map((s) => ({
      userId: s.id,
      email: emails.get(s.id) ?? '',
      outcome: 'skipped' as const,
      code: s.code as BulkSkipCode,
      message: s.message,
    }));
  },

  undoable: (operation, stored) =>
    bulkInverse(operation, typeof stored.active === 'boolean' ? stored.active : null) !== null,
};

/** POST /users/bulk (tRPC `users.bulk`). */
export const runBulk = bulkHandler(usersBulk);
