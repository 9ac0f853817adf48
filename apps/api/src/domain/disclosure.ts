import { type ActionState, IMPORT_ERROR_CODES, JOB_CODE_SENTENCES } from '@app/contracts';
import type { Actor } from '../auth/actor.js';

/**
 * Who may be told who: an answer about something else (a role's impact, a job's skips, an
 * import's problem lines, a bulk change's refusals) names users — their ids, names, e-mails, or a
 * rule's sentence naming them — only to a caller who may look users up (users.view). Everyone
 * else gets counts and codes, each code in a sentence naming nobody, and a state saying why the
 * names are missing. docs/security.md lists every answer that embeds people and who reads them.
 */
export const mayNamePeople = (actor: Actor): boolean => actor.permissions.has('users.view');

const WITHHELD = 'The users are counted, not named: naming them takes the users.view permission.';
const OWN_FILE =
  'Lines show what your file said; the accounts they met are described, not named: naming them takes the users.view permission.';

/** Whether an answer about something else (a role's impact) names the users it reaches, and why not. */
export const peopleState = (actor: Actor): ActionState => jobPeopleState(mayNamePeople(actor) ? 'all' : 'none');

/** A skip's code as a sentence naming nobody (a rule's own sentence names the user it refused). */
export function codeSentence(code: string): string {
  return (JOB_CODE_SENTENCES as Readonly<Record<string, string>>)[code] ?? 'The user was left as they were.';
}

/**
 * How much of the people in a job's lines the caller reads: everything with users.view; an
 * import's submitter without it reads back what their own file said (its e-mails, and the
 * problems found in its text) but not what the accounts it met are; anyone else, codes alone.
 */
export type JobPeopleView = 'all' | 'own-file' | 'none';

export function jobPeopleView(actor: Actor, job: { kind: string; submitterId: number | null }): JobPeopleView {
  if (mayNamePeople(actor)) return 'all';
  return job.kind === 'import' && job.submitterId === actor.id ? 'own-file' : 'none';
}

export function jobPeopleState(view: JobPeopleView): ActionState {
  if (view === 'all') return { allowed: true };
  return { allowed: false, code: 'FORBIDDEN', message: view === 'own-file' ? OWN_FILE : WITHHELD };
}

// Problems found in a line's own text: their sentences quote the file, never an account.
const FILE_CODES: ReadonlySet<string> = new Set([...IMPORT_ERROR_CODES, 'DUPLICATE_IN_FILE']);

/** The part of a job's line that is about a person. */
interface PersonLine {
  id?: number | null;
  email: string | null;
  code: string;
  message: string;
}

/** A job's line about a user as `view` may read it. */
export function lineFor<T extends PersonLine>(
  view: JobPeopleView,
  line: T,
): Omit<T, 'email' | 'message'> & { email: string | null; message: string } {
  if (view === 'all') return line;
  const noId = 'id' in line ? { id: null } : {};
  if (view === 'own-file') {
    return FILE_CODES.has(line.code) ? { ...line, ...noId } : { ...line, ...noId, message: codeSentence(line.code) };
  }
  return { ...line, ...noId, email: null, message: codeSentence(line.code) };
}
