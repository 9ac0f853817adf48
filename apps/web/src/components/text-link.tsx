import { cn } from '@app/ui';
import { Link, type LinkProps } from 'react-router';

/**
 * A link inside running text or under a card (back to sign-in, forgot password): underlined to be
 * seen as a link, in the text's colour (the primary hue is too dim on the dark background).
 */
export function TextLink({ className, ...props }: LinkProps) {
  return (
    <Link
      {...props}
      className={cn(
        'rounded-sm font-medium text-foreground underline decoration-muted-foreground/60 underline-offset-4 hover:decoration-foreground focus-visible:outline-2 focus-visible:outline-ring',
        className,
      )}
    />
  );
}
