import { type DownloadResult, timeDownloadOf } from './export.js';
import type { ApiServer } from './server.js';

/**
 * Issue 40's figures beside the jobs bench: a job's report streamed against the users CSV export
 * of the same rows, and the undo of a bulk job (its dry run, then the real one).
 */

/** Downloads a CSV whole, failing the run on anything but 2xx. */
async function download(api: ApiServer, token: string, path: string, name: string): Promise<DownloadResult> {
  const d = await timeDownloadOf(`${api.baseUrl}${path}`, { authorization: `Bearer ${token}` }, api, {
    name,
    format: 'csv',
  });
  if (d.status < 200 || d.status >= 300) throw new Error(`GET ${path}: ${d.status} ${d.bodySnippet.slice(0, 200)}`);
  return d;
}

/** The users CSV export of every active user: the rows "deactivate every active user" changes. */
export const exportActiveUsers = (api: ApiServer, token: string) =>
  download(api, token, '/api/users/export?format=csv&filters%5Bis_active%5D=active', 'users-active');

/** A job's whole report as CSV: one line per user it changed, skipped or failed on. */
export const jobReport = (api: ApiServer, token: string, jobId: number) =>
  download(api, token, `/api/jobs/${jobId}/report?format=csv`, `job-${jobId}-report`);
