import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from './index';

// The OpenAPI document is generated from these schemas, so each must convert to JSON Schema.
const inputs: Array<[string, z.ZodType]> = [
  ['usersListQuery.input', contracts.usersListQuery.input],
  ['userShowQuery.input', contracts.userShowQuery.input],
  ['roleShowQuery.input', contracts.roleShowQuery.input],
  ['UsersSelectedInputSchema', contracts.UsersSelectedInputSchema],
  ['UsersExportInputSchema', contracts.UsersExportInputSchema],
  ['UserCreateInputSchema', contracts.UserCreateInputSchema],
  ['UserUpdateInputSchema', contracts.UserUpdateInputSchema],
  ['SetActiveInputSchema', contracts.SetActiveInputSchema],
  ['BulkInputSchema', contracts.BulkInputSchema],
  ['IdInputSchema', contracts.IdInputSchema],
];

const outputs: Array<[string, z.ZodType]> = [
  ['ProblemSchema', contracts.ProblemSchema],
  ['UserRowSchema', contracts.UserRowSchema],
  ['UserShowResultSchema', contracts.UserShowResultSchema],
  ['UserEditItemSchema', contracts.UserEditItemSchema],
  ['BulkReportSchema', contracts.BulkReportSchema],
  ['RoleShowResultSchema', contracts.RoleShowResultSchema],
];

describe('JSON Schema for the OpenAPI document', () => {
  it.each(inputs)('converts %s as an input', (_name, schema) => {
    expect(z.toJSONSchema(schema, { io: 'input' })).toHaveProperty('type', 'object');
  });

  it.each(outputs)('converts %s as an output', (_name, schema) => {
    expect(z.toJSONSchema(schema)).toHaveProperty('type', 'object');
  });
});
