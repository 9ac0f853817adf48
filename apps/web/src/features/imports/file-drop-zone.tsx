import { useImportMessages } from './import-messages';
import { cn } from '@app/ui';
import { FileUp } from 'lucide-react';
import { type DragEvent, useRef, useState } from 'react';

/** The kinds of file the server reads (by extension; the server decides by content and type). */
export const IMPORT_ACCEPT = '.csv,.tsv,.txt,.xlsx,.json,.ndjson,.jsonl';

/**
 * A drop zone that is also a button: drag a file onto it, or press it (mouse, Enter, Space) to
 * open the browser's file picker, a real `<input type="file">`.
 */
export function FileDropZone({
  file,
  onFile,
  disabled = false,
}: {
  file: File | null;
  onFile: (file: File) => void;
  disabled?: boolean;
}) {
  const t = useImportMessages().imports.file;
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const take = (files: FileList | null | undefined) => {
    const chosen = files?.[0];
    if (chosen && !disabled) onFile(chosen);
  };
  const over = (event: DragEvent) => {
    event.preventDefault();
    if (!disabled) setDragging(true);
  };

  return (
    <div>
      <button
        type="button"
        disabled={disabled}
        // Named by what it shows (its title, then the formats or the chosen file), so a voice
        // command saying what is on the screen reaches it.
        onClick={() => input.current?.click()}
        onDragEnter={over}
        onDragOver={over}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          take(event.dataTransfer.files);
        }}
        className={cn(
          'flex w-full flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          'disabled:cursor-not-allowed disabled:opacity-60',
          dragging
            ? 'border-primary bg-primary/5'
            : 'border-border bg-surface-muted/30 hover:border-primary/60 hover:bg-surface-muted/60',
        )}
      >
        <FileUp aria-hidden="true" className="size-7 text-muted-foreground" />
        <span className="block text-sm font-medium text-foreground">{file ? t.change : t.dropZone}</span>
        <span className="block text-xs text-muted-foreground">
          {file ? t.chosen(file.name, t.size(file.size)) : `${t.dropHint} · ${t.accepted}`}
        </span>
      </button>
      {/* The picker itself: reached through the button above, so it takes no tab stop of its own. */}
      <input
        ref={input}
        type="file"
        accept={IMPORT_ACCEPT}
        aria-label={t.dropZone}
        tabIndex={-1}
        className="sr-only"
        disabled={disabled}
        onChange={(event) => {
          take(event.currentTarget.files);
          // Choosing the same file again (after fixing it) must fire change again.
          event.currentTarget.value = '';
        }}
      />
    </div>
  );
}
