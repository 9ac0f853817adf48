import type { Readable } from 'node:stream';

/**
 * A procedure's answer that is a file, not data: the REST door streams `body` as a download.
 * A class, so no JSON answer can be mistaken for one.
 */
export class FileDownload {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly body: Readable,
  ) {}
}
