import type { AttributeSensitivity } from '@app/contracts';
import type { Actor } from '../auth/actor.js';

/**
 * Who sees which custom attribute (SPEC §14): a `sensitive` attribute exists only for holders of
 * attributes.sensitive.view — absent, not empty, from every answer, export, filter, sort, audit
 * diff and form of anyone else, and not writable by them (a blind write would let them probe or
 * overwrite what they cannot read). Every door asks here.
 */
export const SENSITIVE_VIEW = 'attributes.sensitive.view';

export const maySeeSensitive = (actor: Pick<Actor, 'permissions'>): boolean => actor.permissions.has(SENSITIVE_VIEW);

export const visibleTo = (actor: Pick<Actor, 'permissions'>, sensitivity: AttributeSensitivity): boolean =>
  sensitivity !== 'sensitive' || maySeeSensitive(actor);

/** The definitions the actor may see (and write), in their order. */
export function visibleDefinitions<T extends { sensitivity: AttributeSensitivity }>(
  actor: Pick<Actor, 'permissions'>,
  definitions: readonly T[],
): T[] {
  return definitions.filter((d) => visibleTo(actor, d.sensitivity));
}
