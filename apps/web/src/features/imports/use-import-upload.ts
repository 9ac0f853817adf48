import type { Job } from '@app/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type UploadRequest, uploadImport } from './import-upload';

/** Where one upload is: sending bytes, waiting while the server reads the file, or refused. */
export type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; loaded: number; total: number }
  | { status: 'reading' }
  | { status: 'failed'; error: unknown };

const IDLE: UploadState = { status: 'idle' };

/**
 * Uploads one file at a time: starting another aborts the one in flight, and an answer that
 * arrives for a superseded upload is dropped, so the page only ever shows the latest choices.
 */
export function useImportUpload(onJob: (job: Job) => void) {
  const [state, setState] = useState<UploadState>(IDLE);
  const current = useRef<AbortController | null>(null);
  const onJobRef = useRef(onJob);
  onJobRef.current = onJob;

  useEffect(() => () => current.current?.abort(), []);

  const start = useCallback((request: Omit<UploadRequest, 'onProgress' | 'onUploaded' | 'signal'>) => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    const mine = () => current.current === controller;
    setState({ status: 'uploading', loaded: 0, total: request.file.size });
    uploadImport({
      ...request,
      signal: controller.signal,
      onProgress: (loaded, total) => {
        if (mine()) setState({ status: 'uploading', loaded, total });
      },
      onUploaded: () => {
        if (mine()) setState({ status: 'reading' });
      },
    }).then(
      (job) => {
        if (!mine()) return;
        current.current = null;
        setState(IDLE);
        onJobRef.current(job);
      },
      (error: unknown) => {
        if (!mine()) return;
        current.current = null;
        setState({ status: 'failed', error });
      },
    );
  }, []);

  const reset = useCallback(() => {
    current.current?.abort();
    current.current = null;
    setState(IDLE);
  }, []);

  return { state, start, reset };
}

/**
 * A version 4 UUID for `Idempotency-Key`. `crypto.randomUUID` exists only in secure contexts
 * (HTTPS or localhost); an intranet deployment over plain HTTP still has `getRandomValues`.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
