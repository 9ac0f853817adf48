import { attributePath, type ImportMode, type ImportProblemCode } from '@app/contracts';
import type { AttributeWrite } from '../../domain/attributes.values-plan.js';
import type { Actor } from '../../auth/actor.js';
import { type RoleGrant, roleRefusal, rolesBeyondActor } from '../../domain/escalation.js';
import { usersPolicy } from '../../domain/users.policy.js';
import { type Change, judge, type RulesConfig, type Target } from '../../domain/users.rules.js';
import type { Account } from './imports.accounts.js';
import type { LineProblem, ValidLine } from './import.lines.js';

/**
 * What each line of a chunk does to the account it names, by the same rules as every other door:
 * `create` when no account holds the e-mail, `update`/`unchanged` for one that does (upsert, or
 * a deleted one to restore), `skip` or `error` otherwise; in upsert mode a line with an id names
 * its account by that id, whose e-mail may then change (`namedAccount`). Updates meet the rules
 * of SPEC §7 through the domain's `judge`, all of the chunk's at once and in line order, so the
 * last-administrator rule sees what the earlier lines leave.
 */

export interface Settings {
  mode: ImportMode;
  activate: boolean;
  restore: boolean;
  defaultRoleIds: readonly number[];
  adminRoleId: number | null;
  rules: RulesConfig;
}

export interface UpdateSet {
  name?: string;
  email?: string;
  is_active?: boolean;
  external_id?: string | null;
  restore?: boolean;
  /** The custom attribute values the line changes (those it names and the account holds otherwise). */
  attributes?: AttributeWrite[];
}

export type Decision =
  | { outcome: 'create'; line: ValidLine; roleIds: number[]; isActive: boolean }
  | {
      outcome: 'update';
      line: ValidLine;
      account: Account;
      set: UpdateSet;
      roles: { next: number[]; added: number[]; removed: number[] } | null;
      before: Record<string, unknown>;
      after: Record<string, unknown>;
    }
  | { outcome: 'unchanged'; line: ValidLine; account: Account }
  | { outcome: 'skip' | 'error'; line: number; email: string; userId: number | null; problem: LineProblem };

const SKIPS: ReadonlySet<ImportProblemCode> = new Set(['EMAIL_TAKEN', 'DUPLICATE_IN_FILE', 'USER_DELETED']);

export const problemDecision = (
  line: number,
  email: string,
  userId: number | null,
  problem: LineProblem,
): Decision => ({
  outcome: SKIPS.has(problem.code) ? 'skip' : 'error',
  line,
  email,
  userId,
  problem,
});

export interface ChunkFacts {
  /** The accounts holding the lines' e-mails, by canonical e-mail. */
  accounts: ReadonlyMap<string, Account>;
  /** The accounts the lines' ids name (upsert). */
  byId: ReadonlyMap<number, Account>;
  /** Accounts earlier chunks of this import already changed, with the line that did (a real run). */
  changedEarlier: ReadonlyMap<number, number>;
  /** The first line of the file holding each e-mail. */
  firstLines: ReadonlyMap<string, number>;
  externalIdOwners: ReadonlyMap<string, number>;
  /** Each account's permissions beyond the actor (the ceiling). */
  beyond: ReadonlyMap<number, ReadonlySet<string>>;
  roles: ReadonlyMap<number, RoleGrant>;
  admins: ReadonlySet<number>;
  /** What each account holds now of the attributes its line names, by key. */
  attributeValues: ReadonlyMap<number, ReadonlyMap<string, unknown>>;
}

/**
 * The account a line names: the one with the line's id when it has one (only upsert lines do:
 * a create's ID column fills nothing), else the one holding its e-mail. Every step that asks
 * which account a line is about (its attributes, its decision) asks here.
 */
export function namedAccount(
  line: Pick<ValidLine, 'id' | 'email'>,
  facts: Pick<ChunkFacts, 'accounts' | 'byId'>,
): Account | undefined {
  return line.id === null ? facts.accounts.get(line.email) : facts.byId.get(line.id);
}

const sameSet = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x) => b.includes(x));

function roleNames(ids: readonly number[], roles: ReadonlyMap<number, RoleGrant>): string[] {
  return ids.map((id) => roles.get(id)?.name ?? String(id)).sort();
}

function creation(actor: Actor, line: ValidLine, s: Settings): Decision {
  if (line.name === null)
    return problemDecision(line.line, line.email, null, { code: 'INVALID_NAME', message: 'Enter a name.' });
  const isActive = line.isActive ?? s.activate;
  if (!isActive && !usersPolicy.createInactive(actor)) {
    const message = 'You need the users.setActive permission to create an inactive account.';
    return problemDecision(line.line, line.email, null, { code: 'FORBIDDEN', message });
  }
  return { outcome: 'create', line, roleIds: line.roleIds ?? [...s.defaultRoleIds], isActive };
}

/** The update a line asks of an existing account, before the rules: what differs, and the changes to judge. */
function proposal(line: ValidLine, account: Account, facts: ChunkFacts, s: Settings) {
  const set: UpdateSet = {};
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const target: Target = {
    id: account.id,
    name: account.name,
    is_active: account.is_active,
    deleted: account.deleted,
    permissions: facts.beyond.get(account.id) ?? new Set(),
  };
  const changes: Change[] = [{ kind: 'update', target }];
  if (account.deleted) {
    set.restore = true;
    changes.push({ kind: 'restore', target });
  }
  // Found by its id, an account takes the line's e-mail (found by its e-mail, it already has it).
  if (line.email !== account.email.toLowerCase()) {
    set.email = line.email;
    [before.email, after.email] = [account.email, line.email];
  }
  if (line.name !== null && line.name !== account.name) {
    set.name = line.name;
    [before.name, after.name] = [account.name, line.name];
  }
  if (line.externalId !== null && line.externalId !== account.external_id) {
    set.external_id = line.externalId;
    [before.external_id, after.external_id] = [account.external_id, line.externalId];
  }
  if (line.isActive !== null && line.isActive !== account.is_active) {
    set.is_active = line.isActive;
    [before.is_active, after.is_active] = [account.is_active, line.isActive];
    changes.push({ kind: 'setActive', target, active: line.isActive });
  }
  const held = facts.attributeValues.get(account.id);
  const changedAttributes = line.attributes.filter((w) => (held?.get(w.definition.key) ?? null) !== w.value);
  for (const w of changedAttributes) {
    const field = attributePath(w.definition.key);
    [before[field], after[field]] = [held?.get(w.definition.key) ?? null, w.value];
  }
  if (changedAttributes.length > 0) set.attributes = changedAttributes;
  let roles: { next: number[]; added: number[]; removed: number[] } | null = null;
  if (line.roleIds !== null && !sameSet(line.roleIds, account.roleIds)) {
    const next = line.roleIds;
    roles = {
      next,
      added: next.filter((r) => !account.roleIds.includes(r)),
      removed: account.roleIds.filter((r) => !next.includes(r)),
    };
    [before.roles, after.roles] = [roleNames(account.roleIds, facts.roles), roleNames(next, facts.roles)];
    if (s.adminRoleId !== null && roles.removed.includes(s.adminRoleId))
      changes.push({ kind: 'removeAdminRole', target });
  }
  return { set, before, after, roles, changes };
}

type Proposal = ReturnType<typeof proposal> & { line: ValidLine; account: Account };

/** What earlier lines of the chunk claim: external ids, and accounts (by id), each with its line. */
interface Claims {
  externalIds: Map<string, number>;
  accounts: Map<number, number>;
}

/**
 * The account a line is about, or why it names none it may change: an id no account has, an
 * e-mail another account holds, an account an earlier line already names.
 */
function accountOfLine(
  line: ValidLine,
  facts: ChunkFacts,
  claims: Claims,
): { account: Account | undefined } | (LineProblem & { userId: number | null }) {
  const account = namedAccount(line, facts);
  if (line.id !== null && !account)
    return { code: 'ID_NOT_FOUND', message: `No account has the ID ${line.id}.`, userId: null };
  if (!account) return { account };
  const holder = facts.accounts.get(line.email);
  if (holder && holder.id !== account.id) {
    const message = 'Another account already has this e-mail address; an e-mail can belong to one account only.';
    return { code: 'EMAIL_TAKEN', message, userId: account.id };
  }
  const earlier = claims.accounts.get(account.id) ?? facts.changedEarlier.get(account.id);
  if (earlier !== undefined) {
    const message = `Line ${earlier} already names this account; only the first line naming it is imported.`;
    return { code: 'DUPLICATE_IN_FILE', message, userId: account.id };
  }
  claims.accounts.set(account.id, line.line);
  return { account };
}

/**
 * One line's decision where the line alone decides it, or the update it proposes (judged with
 * the chunk's other updates).
 */
function firstPass(
  actor: Actor,
  line: ValidLine | (LineProblem & { line: number; email: string }),
  facts: ChunkFacts,
  s: Settings,
  claims: Claims,
): Decision | Proposal {
  if ('code' in line) return problemDecision(line.line, line.email, null, line);
  const refuse = (code: ImportProblemCode, message: string, userId: number | null = null) =>
    problemDecision(line.line, line.email, userId, { code, message });
  const first = facts.firstLines.get(line.email);
  if (first !== undefined && first < line.line) {
    return refuse(
      'DUPLICATE_IN_FILE',
      `Line ${first} already has this e-mail address; only the first line with it is imported.`,
    );
  }
  const named = accountOfLine(line, facts, claims);
  if ('code' in named) return refuse(named.code, named.message, named.userId);
  const { account } = named;
  const owner = line.externalId === null ? undefined : facts.externalIdOwners.get(line.externalId);
  if (owner !== undefined && owner !== account?.id) {
    return refuse('INVALID_ROW', 'Another account already has this external id.', account?.id ?? null);
  }
  const earlier = line.externalId === null ? undefined : claims.externalIds.get(line.externalId);
  if (earlier !== undefined) {
    return refuse('INVALID_ROW', `Line ${earlier} already has this external id.`, account?.id ?? null);
  }
  if (line.externalId !== null) claims.externalIds.set(line.externalId, line.line);
  if (!account) return creation(actor, line, s);
  if (account.deleted && !s.restore) {
    return refuse(
      'USER_DELETED',
      `${account.name} is deleted: import with restore=true to restore the account.`,
      account.id,
    );
  }
  if (!account.deleted && s.mode === 'create') {
    const message = 'An account with this e-mail address already exists (import in upsert mode to update it).';
    return refuse('EMAIL_TAKEN', message, account.id);
  }
  const proposed = proposal(line, account, facts, s);
  const touched = [...(proposed.roles?.added ?? []), ...(proposed.roles?.removed ?? [])].flatMap(
    (id) => facts.roles.get(id) ?? [],
  );
  const refused = rolesBeyondActor(actor, touched)[0];
  if (refused) return refuse('ROLE_NOT_GRANTABLE', roleRefusal(refused, refused.missing), account.id);
  return { ...proposed, line, account };
}

const isProposal = (d: Decision | Proposal): d is Proposal => 'changes' in d;

/** Every line of a chunk, decided in line order (valid lines and those already found wrong). */
export function decideChunk(
  actor: Actor,
  lines: ReadonlyArray<ValidLine | (LineProblem & { line: number; email: string })>,
  facts: ChunkFacts,
  s: Settings,
): Decision[] {
  const claims: Claims = { externalIds: new Map(), accounts: new Map() };
  const passed = lines.map((line) => firstPass(actor, line, facts, s, claims));
  const proposals = passed.filter(isProposal);
  const changes = proposals.filter((p) => p.set.restore || Object.keys(p.after).length > 0).flatMap((p) => p.changes);
  const violations = judge(actor, changes, facts.admins, s.rules);
  return passed.map((p) => {
    if (!isProposal(p)) return p;
    const violation = violations.get(p.account.id);
    if (violation)
      return problemDecision(p.line.line, p.line.email, p.account.id, {
        code: violation.code as ImportProblemCode,
        message: violation.message,
      });
    if (!p.set.restore && Object.keys(p.after).length === 0)
      return { outcome: 'unchanged', line: p.line, account: p.account };
    return {
      outcome: 'update',
      line: p.line,
      account: p.account,
      set: p.set,
      roles: p.roles,
      before: p.before,
      after: p.after,
    };
  });
}
