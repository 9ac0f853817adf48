import { type ExportFormat, stringifyQuery } from '@app/contracts';
import { apiUrl } from '../api-url';
import { type ListState, toListInput } from './list-state';

/**
 * The export of exactly what the table shows: its search, filters and order (page and page size
 * do not apply), its visible columns in their order, and the selection when there is one.
 * `path` is the resource's export route (`/api/users/export`).
 */
export function exportUrl<S extends string, F extends object>(
  path: string,
  state: ListState<S, F>,
  format: ExportFormat,
  columns: readonly string[],
  ids: readonly number[] = [],
): string {
  const { page: _page, perPage: _perPage, ...query } = toListInput(state);
  const search = stringifyQuery({ ...query, format, columns, ids: ids.length > 0 ? ids : undefined });
  return apiUrl(`${path}?${search}`);
}

/** A plain download: the browser streams the file to disk with the session cookie; no blob in memory. */
export function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
