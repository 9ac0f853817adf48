import { z } from 'zod';
import { integer, numeric } from './query/fields';

/** A record id as the server returns it. */
export const IdSchema = z.number().int().positive();

/** Timestamps cross the wire as ISO 8601 UTC strings (`2024-05-01T09:30:00.000Z`). */
export const IsoDateTimeSchema = z.iso.datetime();

/** `{id, name}`: a role or permission as embedded in another resource. */
export const NamedRefSchema = z.object({ id: IdSchema, name: z.string() });
export type NamedRef = z.infer<typeof NamedRefSchema>;

/** `{id}` from a path parameter (text in REST) or a tRPC object. */
export const IdInputSchema = z.object({
  id: numeric(integer('The id must be a whole number of 1 or more.', { min: 1 })),
});
export type IdInput = z.infer<typeof IdInputSchema>;
