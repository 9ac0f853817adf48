import type { ActionState, ImportMode, Permission } from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import { type JobAsked, type JobRefusal, lackingForJob } from './jobs.rules.js';

/** What an import's options ask, as far as who may run it goes: its mode, activate and restore. */
export type ImportAsked = Omit<Extract<JobAsked, { kind: 'import' }>, 'kind'>;

/**
 * What each permission an import can need (domain/jobs.rules.ts decides which) is needed for, so
 * that a refusal says which choice asked for it. Keyed by permission, as the refusal names one.
 */
const NEEDED_FOR: Partial<Record<Permission, string>> = {
  'users.create': 'import users',
  'users.update': 'update existing users from a file (upsert)',
  'users.setActive': 'import users as inactive',
  'users.restore': 'restore deleted users from a file',
};

/**
 * Why an import with these options is refused to `actor`: the first permission the job's own
 * table (`lackingForJob`) finds missing, in a sentence naming the choice that needs it; null when
 * it may run. POST /users/imports throws it; GET /users/imports/new offers each choice by it.
 */
export function importRefusal(actor: Actor, asked: ImportAsked): (JobRefusal & { permission: Permission }) | null {
  const lacking = lackingForJob(actor, { kind: 'import', ...asked });
  if (!lacking) return null;
  const what = NEEDED_FOR[lacking] ?? 'import with these options';
  return { code: 'FORBIDDEN', message: `You need the ${lacking} permission to ${what}.`, permission: lacking };
}

/** The plainest import: create mode, new accounts active, deleted ones left alone. */
const PLAIN: ImportAsked = { mode: 'create', activate: true, restore: false };

const stateOf = (actor: Actor, asked: ImportAsked): ActionState => {
  const refusal = importRefusal(actor, asked);
  return refusal ? { allowed: false, code: refusal.code, message: refusal.message } : { allowed: true };
};

/**
 * Each mode and option of an import as the import page offers them to `actor`, each judged alone
 * over the plainest import by the rule the submission applies. What each choice needs adds up, so
 * any mix of allowed choices is allowed, and a refused one is refused with the submission's words.
 */
export function importChoices(actor: Actor): {
  modes: Record<ImportMode, ActionState>;
  options: { inactive: ActionState; restore: ActionState };
} {
  return {
    modes: { create: stateOf(actor, PLAIN), upsert: stateOf(actor, { ...PLAIN, mode: 'upsert' }) },
    options: {
      inactive: stateOf(actor, { ...PLAIN, activate: false }),
      restore: stateOf(actor, { ...PLAIN, restore: true }),
    },
  };
}
