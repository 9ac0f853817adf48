import {
  AttributeCreateInputSchema,
  AttributeDeleteQuerySchema,
  AttributeImpactAnswerSchema,
  AttributeItemSchema,
  AttributeKeyInputSchema,
  AttributeListSchema,
  AttributeUpdateInputSchema,
  AttributeWriteAnswerSchema,
} from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { createAttribute } from './create.handler.js';
import { deleteAttribute } from './delete.handler.js';
import { listAttributes } from './list.handler.js';
import { showAttribute } from './show.handler.js';
import { updateAttribute } from './update.handler.js';

const manage = can('attributes.manage');

export const attributesRouter = router({
  list: manage
    .meta(rest('GET', '/attributes', { summary: 'List the custom attributes users carry, with how many hold a value' }))
    .output(AttributeListSchema)
    .query(listAttributes),
  create: manage
    .meta(rest('POST', '/attributes', { status: 201, summary: 'Declare a custom attribute' }))
    .input(AttributeCreateInputSchema)
    .output(AttributeItemSchema)
    .mutation(createAttribute),
  show: manage
    .meta(rest('GET', '/attributes/{key}', { summary: 'Show one custom attribute' }))
    .input(AttributeKeyInputSchema)
    .output(AttributeItemSchema)
    .query(showAttribute),
  update: manage
    .meta(
      rest('PUT', '/attributes/{key}', {
        summary:
          'Change an attribute (the whole definition). dryRun answers the impact on stored values; a change that would break any is refused (409 ATTRIBUTE_CONFLICT) unless onConflict is "clear"',
        problems: ['NOT_FOUND', 'ATTRIBUTE_CONFLICT'],
      }),
    )
    .input(AttributeKeyInputSchema)
    .input(AttributeUpdateInputSchema)
    .output(AttributeWriteAnswerSchema)
    .mutation(updateAttribute),
  delete: manage
    .meta(
      rest('DELETE', '/attributes/{key}', {
        summary: 'Remove an attribute and every value of it, answering what went; with dryRun=true, what would go',
        problems: ['NOT_FOUND'],
      }),
    )
    .input(AttributeKeyInputSchema)
    .input(AttributeDeleteQuerySchema)
    .output(AttributeImpactAnswerSchema)
    .mutation(deleteAttribute),
});
