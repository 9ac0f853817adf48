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

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `filters` less its conditions on attributes `hidden` says: an export's plain `{key: condition}`, or a job's `{kind, value}`. */
function visibleFilters(filters: Json, hidden: (key: string) => boolean): Json {
  const attributes = filters.attributes;
  if (!isRecord(attributes)) return filters;
  const keep = (conditions: Json) => Object.fromEntries(Object.entries(conditions).filter(([key]) => !hidden(key)));
  if (attributes.kind === 'exact' && isRecord(attributes.value)) {
    return { ...filters, attributes: { ...attributes, value: keep(attributes.value) } };
  }
  return { ...filters, attributes: keep(attributes) };
}

/** A job's frozen selection (bulk/selection-job.ts) less its conditions on attributes `hidden` says. */
function visibleQuery(query: Json, hidden: (key: string) => boolean): Json {
  const scope = isRecord(query.attributeScope) ? query.attributeScope : null;
  const conditions = scope && Array.isArray(scope.conditions) ? scope.conditions : null;
  const seen = (condition: unknown) =>
    !(isRecord(condition) && isRecord(condition.target) && hidden(String(condition.target.key)));
  return {
    ...query,
    ...(isRecord(query.filters) ? { filters: visibleFilters(query.filters, hidden) } : {}),
    ...(scope && conditions ? { attributeScope: { ...scope, conditions: conditions.filter(seen) } } : {}),
  };
}

/**
 * An event's context as the reader may see it: a condition on a sensitive attribute (its bound is
 * a value, or close to one) is left out for a reader who may not see that attribute — in an
 * export's filters, and in the selection a job was submitted over (`query`).
 */
export function redactedContext(context: Json | null, redaction: AuditRedaction): Json | null {
  if (!redaction || !context) return context;
  const hidden = (key: string) => redaction(`attributes.${key}`, context);
  return {
    ...context,
    ...(isRecord(context.filters) ? { filters: visibleFilters(context.filters, hidden) } : {}),
    ...(isRecord(context.query) ? { query: visibleQuery(context.query, hidden) } : {}),
  };
}
