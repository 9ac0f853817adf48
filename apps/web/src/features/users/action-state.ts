import type { ActionState } from '@app/contracts';

/**
 * Refusals that mean an action is not the caller's to take here at all: no permission, the wrong
 * state for this record, or an account that outranks them (the user page says that once, in a
 * banner, rather than on every control). Not offered. A business rule's refusal (self-
 * deactivation, the last administrator, only inactive users may be deleted, …) is offered as
 * unavailable with the server's sentence: it tells the caller what stands in the way.
 */
const NOT_OFFERED: ReadonlySet<string> = new Set(['FORBIDDEN', 'NOT_FOUND', 'NOT_DELETED', 'OUTRANKED']);

export const isOffered = (state: ActionState) => state.allowed || !NOT_OFFERED.has(state.code ?? '');

/** The server's reason for a refusal, or null when the action is allowed. */
export const refusalOf = (state: ActionState): string | null =>
  state.allowed ? null : (state.message ?? state.code ?? 'FORBIDDEN');
