import { type ImportProblemCode, plainText, UserCreateInputSchema } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import { classifyImportedHash } from '../../auth/imported-hashes.js';
import { UNUSABLE_PASSWORD } from '../../auth/password.js';
import type { AttributeWrite } from '../../domain/attributes.values-plan.js';
import { type RoleGrant, roleRefusal, rolesByName } from '../../domain/escalation.js';
import type { StagedLine } from './imports.staging.js';

/**
 * One line of an import file, judged on its own (no database): its fields by the contract's own
 * schemas and messages, its roles against the roles that exist and those the actor may grant.
 * What the line does to an account is decided next, against the account (`import.decide.ts`).
 */

export interface LineProblem {
  code: ImportProblemCode;
  message: string;
}

/** A line whose fields are valid: what it asks for, each field null when the line leaves it alone. */
export interface ValidLine {
  line: number;
  /** The account the line names by id (upsert), null when it names it by its e-mail. */
  id: number | null;
  email: string;
  name: string | null;
  roleIds: number[] | null;
  isActive: boolean | null;
  /** For a new account only: our hash, an imported one, or none (no usable password). */
  passwordHash: string | null;
  externalId: string | null;
  /** Custom attribute cells by key, as the file says them (typed and judged with the chunk's facts). */
  attributeCells: Readonly<Record<string, string>>;
  /** The attribute values the line writes, once judged (import.attributes.ts). */
  attributes: AttributeWrite[];
}

/** What a chunk's lines are judged against: the roles (by `roleNameKey`, see `rolesByKey`) and who imports. */
export interface LineEnv {
  actor: Actor;
  roles: ReadonlyMap<string, RoleGrant>;
}

const emailSchema = UserCreateInputSchema.shape.email;
const nameSchema = UserCreateInputSchema.shape.name;
const externalIdSchema = plainText('external id').max(255, 'The external id can be at most 255 characters long.');

const firstMessage = (issues: ReadonlyArray<{ message: string }>, fallback: string) => issues[0]?.message ?? fallback;

function rolesOf(names: readonly string[], env: LineEnv): { ids: number[] } | LineProblem {
  const named = rolesByName(env.actor, env.roles, names);
  if ('unknown' in named)
    return { code: 'UNKNOWN_ROLE', message: `There is no role named "${named.unknown.name.slice(0, 100)}".` };
  if ('beyond' in named)
    return { code: 'ROLE_NOT_GRANTABLE', message: roleRefusal(named.beyond, named.beyond.missing) };
  return named;
}

/** The line's fields, each checked as the form checks it; the first problem found otherwise. */
export function validateLine(staged: StagedLine, env: LineEnv): ValidLine | LineProblem {
  const r = staged.record;
  if (r.problem) return { code: r.problem.code as ImportProblemCode, message: r.problem.message };
  const email = emailSchema.safeParse(r.email ?? '');
  if (!email.success)
    return { code: 'INVALID_EMAIL', message: firstMessage(email.error.issues, 'Enter a valid e-mail address.') };
  let name: string | null = null;
  if (r.name !== null) {
    const parsed = nameSchema.safeParse(r.name);
    if (!parsed.success) return { code: 'INVALID_NAME', message: firstMessage(parsed.error.issues, 'Enter a name.') };
    name = parsed.data;
  }
  let externalId: string | null = null;
  if (r.external_id !== null) {
    const parsed = externalIdSchema.safeParse(r.external_id.trim());
    if (!parsed.success)
      return { code: 'INVALID_ROW', message: firstMessage(parsed.error.issues, 'The external id is not valid.') };
    externalId = parsed.data || null;
  }
  if (r.hash_from === 'password_hash' && r.password_hash !== null) {
    const kind = classifyImportedHash(r.password_hash);
    if ('error' in kind) return { code: 'BAD_PASSWORD_HASH', message: kind.error.message };
  }
  let roleIds: number[] | null = null;
  if (r.roles !== null) {
    const roles = rolesOf(r.roles, env);
    if ('code' in roles) return roles;
    roleIds = roles.ids;
  }
  return {
    line: staged.line,
    id: r.id ?? null,
    email: email.data,
    name,
    roleIds,
    isActive: r.is_active,
    passwordHash: r.password_hash,
    externalId,
    attributeCells: r.attributes ?? {},
    attributes: [],
  };
}

/** A new account's password hash: the line's, or one no password matches until one is set. */
export const newAccountHash = (line: ValidLine) => line.passwordHash ?? UNUSABLE_PASSWORD;
