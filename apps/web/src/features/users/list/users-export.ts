import { type ExportFormat, stringifyQuery, type UserColumnKey } from '@app/contracts';
import { apiUrl } from '../../../lib/api-url';
import { toListInput, type UsersListState } from './users-list-state';

/**
 * The export of exactly what the table shows: its search, filters and order (page and page size
 * do not apply), its visible columns in their order, and the selection when there is one.
 */
export function usersExportUrl(
  state: UsersListState,
  format: ExportFormat,
  columns: readonly UserColumnKey[],
  ids: readonly number[],
): string {
  const { page: _page, perPage: _perPage, ...query } = toListInput(state);
  const search = stringifyQuery({ ...query, format, columns, ids: ids.length > 0 ? ids : undefined });
  return apiUrl(`/api/users/export?${search}`);
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
