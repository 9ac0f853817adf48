import { TriangleAlert } from 'lucide-react';

/** A warning about what confirming would do beyond the counts (the command's `notice`), or nothing. */
export function BulkNotice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p
      role="note"
      className="flex gap-2.5 rounded-lg border border-warning/40 bg-warning/5 px-3 py-2.5 text-foreground"
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
      <span>{text}</span>
    </p>
  );
}
