/*
 * Generic parts with no knowledge of the product. Styling uses the host app's design tokens
 * (bg-surface, text-muted-foreground, border-border, bg-primary, text-danger, outline-ring, …),
 * which apps/web defines in its stylesheet; every visible string arrives as a prop.
 */
export { Badge, type BadgeProps, type BadgeTone } from './badge';
export { Button, type ButtonProps, type ButtonSize, type ButtonVariant } from './button';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle, type CardTitleProps } from './card';
export { type ClassDictionary, type ClassValue, cn } from './cn';
export { EmptyState, type EmptyStateProps } from './empty-state';
export { ErrorState, type ErrorStateProps } from './error-state';
export { PageHeader, type PageHeaderProps } from './page-header';
export { Skeleton } from './skeleton';
export { Spinner, type SpinnerProps } from './spinner';
