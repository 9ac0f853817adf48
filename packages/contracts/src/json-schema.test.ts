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
  // Inputs convert as the document converts them: with the declarations for what zod cannot
  // describe itself (the users list's attribute conditions are one).
  it.each(inputs)('converts %s as an input', (_name, schema) => {
    expect(contracts.inputJsonSchema(schema)).toHaveProperty('type', 'object');
  });

  it.each(outputs)('converts %s as an output', (_name, schema) => {
    expect(z.toJSONSchema(schema)).toHaveProperty('type', 'object');
  });
});

describe('what the OpenAPI document shows an input accepts', () => {
  const props = (schema: z.ZodType) =>
    contracts.inputJsonSchema(schema).properties as Record<string, contracts.JsonSchema>;
  const filters = (schema: z.ZodType) => props(schema).filters?.properties as Record<string, contracts.JsonSchema>;

  it('gives each filter form its own schema: one value or a list, keywords in any case, dates', () => {
    expect(filters(contracts.usersListQuery.input).role_id).toEqual({
      anyOf: [
        { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        { type: 'array', items: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, maxItems: 100 },
      ],
    });
    expect(props(contracts.usersListQuery.input).dir).toEqual({
      type: 'string',
      anyOf: [
        { type: 'string', enum: ['asc', 'desc'] },
        { type: 'string', pattern: '^(?:[Aa][Ss][Cc]|[Dd][Ee][Ss][Cc])$' },
      ],
    });
    const range = filters(contracts.usersListQuery.input).created_between as contracts.JsonSchema;
    const from = (range.properties as Record<string, object>).from;
    expect(JSON.stringify(from)).toContain('"format":"date"');
    expect(JSON.stringify(from)).toContain('"format":"date-time"');
    expect(filters(contracts.webhookDeliveriesListQuery.input).status).toMatchObject({
      anyOf: [{ enum: [...contracts.DELIVERY_STATUSES] }, { type: 'array', maxItems: 4 }],
    });
  });

  it('lists the names a show query allows, and shows no parameter where none is allowed', () => {
    expect(props(contracts.userShowQuery.input).with).toMatchObject({ items: { enum: ['roles'] }, maxItems: 50 });
    expect(contracts.acceptsNothing(props(contracts.roleShowQuery.input).append ?? {})).toBe(true);
    expect(props(contracts.roleShowQuery.input).withTrashed?.anyOf).toEqual([
      { type: 'boolean' },
      { type: 'string', pattern: contracts.BOOLEAN_WORDS_PATTERN },
    ]);
    expect(contracts.inputJsonSchema(contracts.userShowQuery.input)[contracts.EMPTY_IS_ABSENT]).toBe(true);
  });

  it('states formats, unique items and dependent keys the refinements enforce', () => {
    expect(props(contracts.UserCreateInputSchema).email).toMatchObject({ format: 'email', maxLength: 255 });
    expect(contracts.inputJsonSchema(contracts.UserCreateInputSchema).dependentRequired).toEqual({
      password: ['password_confirmation'],
    });
    expect(contracts.inputJsonSchema(contracts.UserUpdateInputSchema).then).toMatchObject({
      required: ['password_confirmation'],
    });
    expect(props(contracts.BulkInputSchema).ids).toMatchObject({ uniqueItems: true, maxItems: contracts.MAX_IDS });
    expect(props(contracts.WebhookInputSchema).events).toMatchObject({ uniqueItems: true });
    expect(props(contracts.WebhookInputSchema).url).toMatchObject({ format: 'iri' });
    expect(JSON.stringify(props(contracts.TokenCreateInputSchema).scopes)).toContain('"uniqueItems":true');
  });
});
