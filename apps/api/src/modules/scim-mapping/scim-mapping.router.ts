import { ScimMappingAnswerSchema, ScimMappingInputSchema } from '@app/contracts';
import { rest, router } from '../../trpc/init.js';
import { can } from '../../trpc/procedures.js';
import { showScimMapping, updateScimMapping } from './scim-mapping.handlers.js';

const manage = can('attributes.manage');

export const scimMappingRouter = router({
  show: manage
    .meta(
      rest('GET', '/scim/enterprise-mapping', {
        summary: "Which custom attribute each field of SCIM's enterprise extension fills",
      }),
    )
    .output(ScimMappingAnswerSchema)
    .query(showScimMapping),
  update: manage
    .meta(
      rest('PUT', '/scim/enterprise-mapping', {
        summary:
          "Set which custom attribute each field of SCIM's enterprise extension fills (employeeNumber, costCenter, organization, division, department: a text or enumeration attribute; manager: a user attribute). A field left null is ignored when it comes in",
      }),
    )
    .input(ScimMappingInputSchema)
    .output(ScimMappingAnswerSchema)
    .mutation(updateScimMapping),
});
