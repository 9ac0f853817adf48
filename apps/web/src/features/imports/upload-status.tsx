import { type ImportPageMessages, useImportMessages } from './import-messages';
import { Alert, Spinner } from '@app/ui';
import { ImportNetworkError, ImportUploadError } from './import-upload';
import type { UploadState } from './use-import-upload';

/** The upload's bar while bytes go out, then a spinner while the server reads the file. */
export function UploadProgress({ state }: { state: UploadState }) {
  const t = useImportMessages().imports.upload;
  if (state.status === 'reading') {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <Spinner className="size-4" />
        {t.reading}
      </p>
    );
  }
  if (state.status !== 'uploading') return null;
  const percent = state.total > 0 ? Math.min(100, Math.round((state.loaded / state.total) * 100)) : 0;
  return (
    <div className="space-y-1.5">
      <p className="text-sm text-muted-foreground tabular-nums">{t.uploading(percent)}</p>
      <div
        role="progressbar"
        aria-label={t.uploadLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-surface-muted"
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

/** Everything the server said about a refused file, as sentences (a 413's limit in MB). */
export function uploadErrorSentences(error: unknown, m: ImportPageMessages): string[] {
  const t = m.imports.errors;
  if (error instanceof ImportNetworkError) return [m.errors.network];
  if (!(error instanceof ImportUploadError)) return [m.errors.unexpected];
  if (error.status === 413) return [t.tooLarge(error.limit)];
  if (error.status === 415) return [error.message || t.unsupported];
  // A whole-file refusal comes as `errors.file`; other fields' errors say which option was refused.
  const fieldErrors = Object.values(error.errors).flat();
  if (fieldErrors.length > 0) return [...new Set(fieldErrors)];
  return [error.message || m.errors.unexpected];
}

/** The refusal of an upload, as an alert that says what to change. */
export function UploadError({ error, title }: { error: unknown; title: string }) {
  const m = useImportMessages();
  const sentences = uploadErrorSentences(error, m);
  return (
    <Alert tone="danger" title={title}>
      {sentences.length === 1 ? (
        sentences[0]
      ) : (
        <ul className="list-disc pl-4">
          {sentences.map((sentence) => (
            <li key={sentence}>{sentence}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
