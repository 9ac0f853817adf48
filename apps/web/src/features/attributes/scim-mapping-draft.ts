import {
  type Attribute,
  SCIM_ENTERPRISE_FIELDS,
  type ScimEnterpriseField,
  type ScimMapping,
  scimFieldTakes,
} from '@app/contracts';

/** The card's anchor on the attributes page: the provisioning dialog links here. */
export const SCIM_MAPPING_ANCHOR = 'scim-provisioning';

/** The attributes a field may fill, by the contract's type rule (`manager` a user, the others text). */
export function choicesFor(field: ScimEnterpriseField, attributes: readonly Attribute[]): Attribute[] {
  const takes = scimFieldTakes(field) as readonly string[];
  return attributes.filter((a) => takes.includes(a.type));
}

/** Whether the draft differs from what the server holds: Save waits for a change. */
export const mappingChanged = (draft: ScimMapping, saved: ScimMapping) =>
  SCIM_ENTERPRISE_FIELDS.some((field) => draft[field] !== saved[field]);

/**
 * The server's one-field-per-attribute rule, asked before sending. Of the fields naming one
 * attribute, the one still as saved keeps it and the ones just changed are refused, each with the
 * field that already receives it (as the 422 says): the refusal lands where the user just chose.
 */
export function duplicateFields(
  draft: ScimMapping,
  saved: ScimMapping,
): Partial<Record<ScimEnterpriseField, ScimEnterpriseField>> {
  const unchangedFirst = [...SCIM_ENTERPRISE_FIELDS].sort(
    (a, b) => Number(draft[a] !== saved[a]) - Number(draft[b] !== saved[b]),
  );
  const first = new Map<string, ScimEnterpriseField>();
  const clashes: Partial<Record<ScimEnterpriseField, ScimEnterpriseField>> = {};
  for (const field of unchangedFirst) {
    const key = draft[field];
    if (key === null) continue;
    const taken = first.get(key);
    if (taken) clashes[field] = taken;
    else first.set(key, field);
  }
  return clashes;
}

/** The server's field errors (`mapping.department`) by field; the others are the form's as a whole. */
export function placeServerErrors(errors: Record<string, string[]> | undefined): {
  byField: Partial<Record<ScimEnterpriseField, string>>;
  unplaced: string[];
} {
  const byField: Partial<Record<ScimEnterpriseField, string>> = {};
  const unplaced: string[] = [];
  for (const [path, messages] of Object.entries(errors ?? {})) {
    const field = SCIM_ENTERPRISE_FIELDS.find((f) => path === `mapping.${f}`);
    if (field) byField[field] = [...new Set(messages)].join(' ');
    else unplaced.push(...messages);
  }
  return { byField, unplaced };
}
