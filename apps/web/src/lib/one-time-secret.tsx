import { Alert, Button, cn, inputClassName } from '@app/ui';
import { Check, Copy } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';

export interface OneTimeSecretStrings {
  label: string;
  warningTitle: string;
  warning: string;
  copy: string;
  copied: string;
  /** When the clipboard refuses (no permission, an old browser): the text is selected instead. */
  copyFailed: string;
}

/**
 * A secret the server shows this once (an API token, a webhook's signing secret): read-only,
 * selected on focus, with a copy button and a plain warning that it will not be shown again.
 * The caller drops the value from its state when the dialog closes.
 */
export function OneTimeSecret({
  value,
  strings: t,
  className,
}: {
  value: string;
  strings: OneTimeSecretStrings;
  className?: string;
}) {
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
    <div className={cn('flex flex-col gap-3', className)}>
      <Alert tone="warning" title={t.warningTitle} role="none">
        {t.warning}
      </Alert>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="text-sm font-medium text-foreground">
          {t.label}
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
            {state === 'copied' ? t.copied : t.copy}
          </Button>
        </div>
        <p role="status" className={cn('text-xs', state === 'failed' ? 'text-danger' : 'sr-only')}>
          {state === 'copied' ? t.copied : state === 'failed' ? t.copyFailed : ''}
        </p>
      </div>
    </div>
  );
}
