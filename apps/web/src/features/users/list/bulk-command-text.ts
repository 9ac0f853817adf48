import type { Messages } from '../../../i18n/messages';
import { type BulkCommand, DESTRUCTIVE_ACTIONS } from './user-actions';

/** What the bulk dialogs say about a command: a row action's words, or a role action's with the role named. */
export interface BulkCommandText {
  /** The action as a verb before "all N matching users" / "N users". */
  verb: string;
  title: (count: number) => string;
  description: string;
  affected: (count: number) => string;
  confirm: (count: number) => string;
  done: (count: number) => string;
  destructive: boolean;
}

export function bulkCommandText(m: Messages, command: BulkCommand): BulkCommandText {
  const t = m.usersList.bulk;
  const destructive = DESTRUCTIVE_ACTIONS.has(command.action);
  if ('role' in command) {
    const { action } = command;
    const role = command.role.name;
    const r = t.role;
    return {
      verb: r.verb[action](role),
      title: (count) => r.title[action](count, role),
      description: r.description[action](role),
      affected: (count) => r.affected[action](count, role),
      confirm: (count) => r.confirm[action](count, role),
      done: (count) => r.done[action](count, role),
      destructive,
    };
  }
  const { action } = command;
  return {
    verb: t[action],
    title: t.title[action],
    description: t.description[action],
    affected: t.affected[action],
    confirm: t.confirm[action],
    done: t.done[action],
    destructive,
  };
}
