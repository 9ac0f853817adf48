import { attributePath } from '@app/contracts';
import type { Actor } from '../../auth/actor.js';
import type { Database } from '../../db/database.js';
import { maySeeSensitive } from '../../domain/attributes.visibility.js';
import { listDefinitions } from '../attributes/attributes.repository.js';

/**
 * Which changed fields of an event a reader may not see the values of: a sensitive attribute's,
 * for a reader without attributes.sensitive.view (SPEC §14). A field is sensitive when its writer
 * marked it so (the event's `context.sensitivity`, which holds after the attribute is relaxed or
 * removed) or when its attribute is sensitive now (a value written before it was declared so).
 * Null: the reader sees everything.
 */
export type AuditRedaction = ((field: string, context: Record<string, unknown> | null) => boolean) | null;

export async function auditRedactionFor(db: Database, actor: Pick<Actor, 'permissions'>): Promise<AuditRedaction> {
  if (maySeeSensitive(actor)) return null;
  const sensitiveNow = new Set<string>(
    (await listDefinitions(db)).filter((d) => d.sensitivity === 'sensitive').map((d) => attributePath(d.key)),
  );
  return (field: string, context) => {
    const marked = (context?.sensitivity ?? {}) as Record<string, unknown>;
    return marked[field] === 'sensitive' || sensitiveNow.has(field);
  };
}
