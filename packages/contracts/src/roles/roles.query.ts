import { z } from 'zod';
import { IdSchema, NamedRefSchema } from '../common';
import { defineShowQuery, ShowMetaSchema, type ShowQueryOf } from '../query/define-show-query';

export const roleShowQuery = defineShowQuery({
  with: ['permissions'],
  withCount: ['permissions'],
  append: [],
});
export type RoleShowQuery = ShowQueryOf<typeof roleShowQuery>;

export const RoleItemSchema = z.object({
  id: IdSchema,
  name: z.string(),
  guard_name: z.string(),
  permissions: z.array(NamedRefSchema).optional(),
  permissions_count: z.number().int().nonnegative().optional(),
});
export type RoleItem = z.infer<typeof RoleItemSchema>;

export const RoleShowResultSchema = z.object({ item: RoleItemSchema, meta: ShowMetaSchema });
export type RoleShowResult = z.infer<typeof RoleShowResultSchema>;
