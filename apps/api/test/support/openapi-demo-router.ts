import { IdInputSchema } from '@app/contracts';
import { z } from 'zod';
import { publicProcedure, rest, router } from '../../src/trpc/init.js';
import { can, protectedProcedure } from '../../src/trpc/procedures.js';

// A router with one route of each kind the OpenAPI generator handles, for its tests.

const Tree: z.ZodType = z.object({
  name: z.string(),
  get children() {
    return z.array(Tree);
  },
});
const Label = z.object({ text: z.string() }).meta({ id: 'OpenApiTestLabel' });
// With a default, its input (optional) and output (required) differ: two components, one id.
const Counter = z.object({ n: z.number().default(1) }).meta({ id: 'OpenApiTestCounter' });

export const demoRouter = router({
  things: router({
    list: can('users.view')
      .meta(rest('GET', '/things', { summary: 'List things' }))
      .input(
        z.object({
          q: z.string().describe('Search text').optional(),
          page: z.coerce.number().int().min(1).default(1),
          filters: z
            .object({ tag: z.array(z.string()), range: z.object({ from: z.string() }) })
            .partial()
            .optional(),
          with: z.array(z.enum(['owner'])).optional(),
        }),
      )
      .query(() => ({ rows: [] })),
    export: can('users.export')
      .meta(
        rest('GET', '/things/export', {
          produces: [
            'text/csv',
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'application/json',
          ],
          problems: ['RATE_LIMITED'],
        }),
      )
      .input(z.object({ format: z.enum(['csv', 'xlsx', 'json']) }))
      .query(() => null),
    update: can('users.update')
      .meta(rest('PUT', '/things/{id}'))
      .input(IdInputSchema)
      .input(z.object({ name: z.string().min(1), label: Label, spare: Label.optional() }))
      .output(z.object({ item: z.object({ id: z.number().int(), at: z.date() }) }))
      .mutation(() => ({ item: { id: 1, at: new Date() } })),
    rename: can('users.update')
      .meta(rest('PATCH', '/things/{id}/name'))
      .input(z.object({ id: z.coerce.number().int().positive(), name: z.string().optional() }))
      .mutation(() => null),
    touch: can('users.update')
      .meta(rest('POST', '/things/{id}/touch'))
      .input(IdInputSchema)
      .mutation(() => null),
    remove: can('users.delete')
      .meta(rest('DELETE', '/things/{id}', { status: 204 }))
      .input(IdInputSchema)
      .mutation(() => undefined),
    tree: protectedProcedure
      .meta(rest('GET', '/tree'))
      .output(Tree)
      .query(() => ({ name: 'root', children: [] })),
    signIn: publicProcedure
      .meta({
        ...rest('POST', '/sign-in', { status: 201, problems: ['UNAUTHENTICATED', 'RATE_LIMITED'] }),
        public: true,
      })
      .input(z.object({ email: z.string(), password: z.string() }))
      .mutation(() => ({ ok: true })),
    count: protectedProcedure
      .meta(rest('POST', '/count'))
      .input(z.object({ counter: Counter }))
      .output(z.object({ counter: Counter }))
      .mutation(({ input }) => input),
    internalOnly: publicProcedure.meta({ public: true }).query(() => 'not on REST'),
  }),
});
