import type { ReactNode } from 'react';
import { Button } from './button';
import { cn } from './cn';

export interface ErrorStateProps {
  title: string;
  message?: ReactNode;
  /** Label of the retry button; the button is shown only with `onRetry`. */
  retryLabel?: string;
  onRetry?: () => void;
  retrying?: boolean;
  icon?: ReactNode;
  className?: string;
}

function AlertIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="size-5">
      <path
        strokeLinecap="round"
        strokeLinejoin="round"
        d="M12 8v4m0 4h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"
      />
    </svg>
  );
}

export function ErrorState({
  title,
  message,
  retryLabel,
  onRetry,
  retrying = false,
  icon,
  className,
}: ErrorStateProps) {
  return (
    <div role="alert" className={cn('flex flex-col items-center px-6 py-8 text-center', className)}>
      <div className="mb-4 flex size-10 items-center justify-center rounded-full bg-danger/10 text-danger ring-1 ring-danger/20 ring-inset">
        {icon ?? <AlertIcon />}
      </div>
      <p className="text-sm font-semibold text-foreground">{title}</p>
      {message ? <p className="mt-1 max-w-sm text-sm text-pretty text-muted-foreground">{message}</p> : null}
      {onRetry && retryLabel ? (
        <Button variant="secondary" size="sm" className="mt-5" onClick={onRetry} loading={retrying}>
          {retryLabel}
        </Button>
      ) : null}
    </div>
  );
}
