import { Button, cn, inputClassName } from '@app/ui';
import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';

export interface CopyFieldStrings {
  copy: string;
  copied: string;
  /** When the clipboard refuses: the text is selected instead. */
  copyFailed: string;
}

/**
 * A value to paste elsewhere (the SCIM base URL), read-only with a copy button. Not a secret:
 * no warning; the token beside it is a OneTimeSecret.
 */
export function CopyField({ label, value, strings: t }: { label: string; value: string; strings: CopyFieldStrings }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
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
      input.current?.select();
      setState('failed');
    }
  };

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-foreground">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          ref={input}
          readOnly
          value={value}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
          className={cn(inputClassName, 'min-w-0 flex-1 font-mono text-xs')}
        />
        <Button variant="secondary" onClick={() => void copy()} className="shrink-0">
          {state === 'copied' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {/* Beside the token's own Copy button, a screen reader hears which one this is. */}
          <span>
            {state === 'copied' ? t.copied : t.copy} <span className="sr-only">{label}</span>
          </span>
        </Button>
      </div>
      <p role="status" className={cn('text-xs', state === 'failed' ? 'text-danger' : 'sr-only')}>
        {state === 'copied' ? t.copied : state === 'failed' ? t.copyFailed : ''}
      </p>
    </div>
  );
}
