import { SCIM_SCHEMAS, type ScimListResponse } from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ScimContext } from './scim-context.js';
import { invalidValue, ScimError } from './scim-error.js';
import { decodeCursor, encodeCursor, type ScimListParams } from './scim-list-query.js';

/** What the resource routes share: how a list is ordered, paged and answered, and `If-Match`. */

export type Send = (reply: FastifyReply, status: number, body: unknown, etag?: string) => FastifyReply;
export type ContextOf = (req: FastifyRequest) => Promise<ScimContext>;

export type Order = [string, 'ASC' | 'DESC'][];
export type PageStart = { offset: number } | { afterId: number };

/**
 * Where a list starts and in which order: a cursor walks in id order (RFC 9865: after the last id
 * read), a position (`startIndex`) in `sortBy`'s order — `sorts` maps each attribute a resource
 * can be sorted by (lower-cased, its schema's URN prefix allowed) to its column; id breaks ties.
 */
export function listPlan(
  params: ScimListParams,
  resource: { name: string; urn: string; sorts: ReadonlyMap<string, string> },
): { start: PageStart; order: Order } {
  if (params.cursor !== null) {
    if (params.sortBy !== null) {
      throw invalidValue(`A cursor walks the ${resource.name} in id order: leave sortBy out, or page by startIndex.`);
    }
    return { start: { afterId: decodeCursor(params.cursor) }, order: [['id', 'ASC']] };
  }
  const start = { offset: params.startIndex - 1 };
  if (params.sortBy === null) return { start, order: [['id', 'ASC']] };
  const dir = params.sortOrder === 'descending' ? 'DESC' : 'ASC';
  const column = resource.sorts.get(params.sortBy.toLowerCase().replace(`${resource.urn.toLowerCase()}:`, ''));
  if (!column) throw invalidValue(`sortBy "${params.sortBy}" is not an attribute ${resource.name} can be sorted by.`);
  return {
    start,
    order:
      column === 'id'
        ? [['id', dir]]
        : [
            [column, dir],
            ['id', dir],
          ],
  };
}

/** A ListResponse: `startIndex` for a positioned page, `nextCursor` when a walk has more. */
export function listResponse<T>(
  params: ScimListParams,
  page: { total: number; ids: number[]; more: boolean },
  resources: T[],
): ScimListResponse<T> {
  const byCursor = params.cursor !== null;
  const last = page.ids.at(-1);
  return {
    schemas: [SCIM_SCHEMAS.listResponse],
    totalResults: page.total,
    itemsPerPage: resources.length,
    ...(byCursor ? {} : { startIndex: params.startIndex }),
    ...(byCursor && page.more && last !== undefined ? { nextCursor: encodeCursor(last) } : {}),
    Resources: resources,
  };
}

/** The request's `If-Match`, when it sent one. */
export const ifMatchOf = (req: FastifyRequest): string | undefined => {
  const v = req.headers['if-match'];
  return typeof v === 'string' ? v : undefined;
};

/** `If-Match` (RFC 7232): absent or `*` passes; otherwise one of its tags must be the resource's. */
export function checkIfMatch(ifMatch: string | undefined, etag: string, what: string): void {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  if (!ifMatch.split(',').some((t) => t.trim() === etag)) {
    throw new ScimError(412, `The ${what} changed since that version was read: read it again, then retry.`);
  }
}
