import { cn } from '@app/ui';
import { Link, type LinkProps } from 'react-router';

/** A link inside running text or under a card (back to sign-in, forgot password): visibly a link. */
export function TextLink({ className, ...props }: LinkProps) {
  return (
    <Link
      {...props}
      className={cn(
        'rounded-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring',
        className,
      )}
    />
  );
}
