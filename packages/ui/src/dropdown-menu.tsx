import * as Menu from '@radix-ui/react-dropdown-menu';
import { type ComponentProps, type ComponentPropsWithRef, useId } from 'react';
import { cn } from './cn';
import { CheckIcon } from './icons';

/**
 * Radix's menu (roving focus, typeahead, Escape, focus return) with this app's look. Not modal:
 * a modal menu hides the rest of the page with `aria-hidden` while its links and buttons stay
 * focusable (axe: aria-hidden-focus), and blocks a click outside instead of letting it land; a
 * click or focus outside closes the menu either way.
 */
export function DropdownMenu({ modal = false, ...rest }: ComponentProps<typeof Menu.Root>) {
  return <Menu.Root modal={modal} {...rest} />;
}
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuGroup = Menu.Group;

export function DropdownMenuContent({
  className,
  sideOffset = 6,
  align = 'end',
  ...rest
}: ComponentPropsWithRef<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={sideOffset}
        align={align}
        collisionPadding={8}
        className={cn(
          'z-50 min-w-44 overflow-hidden rounded-lg border border-border bg-surface p-1 text-sm text-foreground shadow-lg',
          'max-h-(--radix-dropdown-menu-content-available-height) overflow-y-auto',
          className,
        )}
        {...rest}
      />
    </Menu.Portal>
  );
}

const item =
  'relative flex h-8 cursor-default select-none items-center gap-2 rounded-md px-2 text-sm outline-none ' +
  'data-[highlighted]:bg-surface-muted data-[disabled]:pointer-events-none data-[disabled]:opacity-50 ' +
  '[&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground';

export interface DropdownMenuItemProps extends ComponentPropsWithRef<typeof Menu.Item> {
  /** Destructive actions are tinted so they are not picked by accident. */
  tone?: 'default' | 'danger';
  /**
   * Why the action cannot be taken now, shown under its label. The item stays reachable with
   * the arrow keys (Radix's `disabled` would skip it, hiding the reason from keyboard users),
   * reads as unavailable, and choosing it leaves the menu open and does nothing.
   */
  unavailableReason?: string | null | undefined;
}

export function DropdownMenuItem({
  className,
  tone = 'default',
  unavailableReason,
  children,
  onSelect,
  ...rest
}: DropdownMenuItemProps) {
  const reasonId = useId();
  if (unavailableReason) {
    // Named by its label, described by the reason. The reason sits beside the item, not in it: an
    // item's name must hold all the words it shows (WCAG 2.5.3, axe label-content-name-mismatch),
    // and a label and its reason read as one name would be a sentence, not "Delete".
    return (
      <Menu.Group>
        <Menu.Item
          aria-disabled="true"
          aria-describedby={reasonId}
          className={cn(item, 'data-[highlighted]:bg-surface-muted/60', className)}
          onSelect={(event) => event.preventDefault()}
          {...rest}
        >
          <span className="flex items-center gap-2 opacity-60">{children}</span>
        </Menu.Item>
        <p id={reasonId} className="max-w-64 px-2 pb-1.5 pl-8 text-xs text-pretty text-muted-foreground">
          {unavailableReason}
        </p>
      </Menu.Group>
    );
  }
  return (
    <Menu.Item
      className={cn(
        item,
        tone === 'danger' && 'text-danger data-[highlighted]:bg-danger/10 [&_svg]:text-danger',
        className,
      )}
      onSelect={onSelect}
      {...rest}
    >
      {children}
    </Menu.Item>
  );
}

export function DropdownMenuCheckboxItem({
  className,
  children,
  ...rest
}: ComponentPropsWithRef<typeof Menu.CheckboxItem>) {
  return (
    <Menu.CheckboxItem className={cn(item, 'pl-8', className)} {...rest}>
      <span className="absolute left-2 flex size-4 items-center justify-center">
        <Menu.ItemIndicator>
          <CheckIcon className="size-4 text-foreground" />
        </Menu.ItemIndicator>
      </span>
      {children}
    </Menu.CheckboxItem>
  );
}

export function DropdownMenuLabel({ className, ...rest }: ComponentPropsWithRef<typeof Menu.Label>) {
  return <Menu.Label className={cn('px-2 py-1.5 text-xs font-medium text-muted-foreground', className)} {...rest} />;
}

export function DropdownMenuSeparator({ className, ...rest }: ComponentPropsWithRef<typeof Menu.Separator>) {
  return <Menu.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...rest} />;
}
