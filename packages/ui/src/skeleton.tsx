import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

/** A placeholder block; hidden from assistive tech, whose users get the container's status text. */
export function Skeleton({ className, ...rest }: ComponentPropsWithRef<'div'>) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-surface-muted', className)} {...rest} />;
}
