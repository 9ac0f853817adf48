import { Button, cn } from '@app/ui';
import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

export interface CopyFieldStrings {
  copy: string;
  copied: string;
  /** When the clipboard refuses: the text is selected instead. */
  copyFailed: string;
}

/**
 * A value to paste elsewhere (the SCIM base URL), shown whole — an administrator checks that it is
 * the address the provider can reach — with a copy button. Not a secret: no warning; the token
 * beside it is a OneTimeSecret.
 */
export function CopyField({ label, value, strings: t }: { label: string; value: string; strings: CopyFieldStrings }) {
  const text = useRef<HTMLElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      if (text.current) window.getSelection()?.selectAllChildren(text.current);
      setState('failed');
    }
  };

  return (
    <fieldset className="m-0 min-w-0 border-0 p-0">
      <legend className="mb-1.5 p-0 text-sm font-medium text-foreground">{label}</legend>
      <div className="flex items-start gap-2">
        <code
          ref={text}
          className="min-w-0 flex-1 rounded-md border border-border bg-surface-muted px-3 py-2 font-mono text-xs break-all text-foreground"
        >
          {value}
        </code>
        <Button variant="secondary" onClick={() => void copy()} className="shrink-0">
          {state === 'copied' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {/* Beside the token's own Copy button, a screen reader hears which one this is. */}
          <span>
            {state === 'copied' ? t.copied : t.copy} <span className="sr-only">{label}</span>
          </span>
        </Button>
      </div>
      <p role="status" className={cn('mt-1.5 text-xs', state === 'failed' ? 'text-danger' : 'sr-only')}>
        {state === 'copied' ? t.copied : state === 'failed' ? t.copyFailed : ''}
      </p>
    </fieldset>
  );
}
