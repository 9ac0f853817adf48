import { SCIM_ENTERPRISE_FIELDS, type ScimMappingAnswer, type ScimMappingInput, scimFieldTakes } from '@app/contracts';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { auditOriginOf, diff, recordChange } from '../../journal/journal.js';
import { visibleDefinitionsOf } from '../attributes/attribute-values.repository.js';
import type { ManageCall } from '../attributes/attributes.call.js';
import { mappedFields, mappingOf, replaceMapping } from './scim-mapping.repository.js';

/** GET /scim/enterprise-mapping: which custom attribute each enterprise field fills. */
export async function showScimMapping({ ctx }: ManageCall<void>): Promise<ScimMappingAnswer> {
  return { item: { mapping: mappingOf(await mappedFields(ctx.db)) } };
}

const refused = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { errors: { [`mapping.${field}`]: [message] } });

/**
 * PUT /scim/enterprise-mapping: the whole mapping. Each key must name an attribute the caller may
 * see, of a type the field's values can be (`manager` a user, the others text or an enumeration),
 * and an attribute fills one field at most. Audited (`scim.mappingUpdate`, before and after).
 */
export async function updateScimMapping({ ctx, input }: ManageCall<ScimMappingInput>): Promise<ScimMappingAnswer> {
  const { db } = ctx;
  return writeTransaction(db, async (tx) => {
    const visible = new Map((await visibleDefinitionsOf(db, ctx.actor, tx)).map((d) => [d.key, d]));
    const rows: { field: (typeof SCIM_ENTERPRISE_FIELDS)[number]; attributeId: number }[] = [];
    const used = new Map<string, string>();
    for (const field of SCIM_ENTERPRISE_FIELDS) {
      const key = input.mapping[field];
      if (key === null) continue;
      const definition = visible.get(key);
      if (!definition) throw refused(field, `There is no attribute "${key}".`);
      const takes = scimFieldTakes(field);
      if (!(takes as readonly string[]).includes(definition.type)) {
        throw refused(
          field,
          `${field} fills an attribute of type ${takes.join(' or ')}; ${definition.label} is ${definition.type}.`,
        );
      }
      const other = used.get(key);
      if (other) throw refused(field, `${definition.label} already receives ${other}.`);
      used.set(key, field);
      rows.push({ field, attributeId: definition.id });
    }
    const before = mappingOf(await mappedFields(db, tx));
    await replaceMapping(db, tx, rows);
    const after = mappingOf(await mappedFields(db, tx));
    const changes = diff(before, after);
    if (Object.keys(changes).length > 0) {
      await recordChange(db, tx, { ...auditOriginOf(ctx), action: 'scim.mappingUpdate', changes });
    }
    return { item: { mapping: after } };
  });
}
