import type { Attribute, AttributeImpact } from '@app/contracts';
import { Spinner } from '@app/ui';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { apiErrorCode, isApiError } from '../../lib/api-error';
import type { AttributeDraft } from './attribute-form-values';

/** The impact a 409 ATTRIBUTE_CONFLICT carries (who holds a value, whose would break); null for any other failure. */
export function conflictImpact(error: unknown): AttributeImpact | null {
  if (apiErrorCode(error) !== 'ATTRIBUTE_CONFLICT' || !isApiError(error)) return null;
  return error.data?.impact ?? null;
}

/** Equal as JSON, an object's keys in any order (the stored validators keep the order they were sent in). */
const same = (a: unknown, b: unknown) => {
  const sorted = (v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v;
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
};

/**
 * Whether saving `draft` over `current` could break a stored value, so the server is asked first
 * (a dry run): a new type, other enumeration values, other validators, or becoming unique or
 * required. A label, a description or a sensitivity never breaks one.
 */
export function couldBreakValues(current: Attribute, draft: AttributeDraft): boolean {
  return (
    current.type !== draft.type ||
    (draft.type === 'enum' && !same(current.values ?? [], draft.values ?? [])) ||
    !same(current.validators, draft.validators) ||
    (draft.unique && !current.unique) ||
    (draft.required && !current.required)
  );
}

/** "1,204 users hold a value; 37 would fail.", or a spinner while the server counts. */
export function ImpactSummary({ impact }: { impact: AttributeImpact | null }) {
  const m = useAttributesMessages();
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-lg border border-border bg-surface-muted/40 px-3 py-2.5 text-sm text-foreground"
    >
      {impact ? (
        m.attributeImpact.summary(impact.holders, impact.failing)
      ) : (
        <>
          <Spinner className="size-4" />
          {m.attributeImpact.checking}
        </>
      )}
    </p>
  );
}
