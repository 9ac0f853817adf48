/*
 * Generic parts with no knowledge of the product. Styling uses the host app's design tokens
 * (bg-surface, text-muted-foreground, border-border, bg-primary, text-danger, outline-ring, …),
 * which apps/web defines in its stylesheet; every visible string arrives as a prop.
 */
export { Alert, type AlertProps, type AlertTone, FormError, type FormErrorProps } from './alert';
export { Avatar, type AvatarProps, initialsOf } from './avatar';
export { Badge, type BadgeProps, type BadgeTone } from './badge';
export { Button, type ButtonProps, buttonClassName, type ButtonSize, type ButtonVariant } from './button';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle, type CardTitleProps } from './card';
export { type CheckboxGroupProps, CheckboxGroup, type CheckboxOption } from './checkbox-group';
export { type ClassDictionary, type ClassValue, cn } from './cn';
export { type DescriptionItem, DescriptionList } from './description-list';
export { EmptyState, type EmptyStateProps } from './empty-state';
export { ErrorState, type ErrorStateProps } from './error-state';
export {
  describedBy,
  FieldError,
  FieldShell,
  type FieldShellProps,
  PasswordField,
  type PasswordFieldProps,
  TextField,
  type TextFieldProps,
} from './field';
export { PageHeader, type PageHeaderProps } from './page-header';
export { Skeleton } from './skeleton';
export { Spinner, type SpinnerProps } from './spinner';
export { Switch, SwitchField, type SwitchFieldProps } from './switch';
export {
  ColumnVisibilityMenu,
  type ColumnVisibilityMenuProps,
  type ColumnVisibilityOption,
} from './column-visibility-menu';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
export {
  DataTable,
  DataTableColumnHeader,
  type DataTableColumnHeaderProps,
  type DataTableProps,
  TABLE_DENSITIES,
  type TableDensity,
} from './data-table';
export { DensityToggle, type DensityToggleProps } from './density-toggle';
export { Dialog, DialogClose, DialogContent, type DialogContentProps, DialogTrigger } from './dialog';
export {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  type DropdownMenuItemProps,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './dropdown-menu';
export { type FilterChip, FilterChips, type FilterChipsProps } from './filter-chips';
export { Input, inputClassName } from './input';
export { NativeSelect } from './native-select';
export { Pagination, type PaginationLabels, type PaginationProps } from './pagination';
export { Popover, PopoverAnchor, PopoverClose, PopoverContent, PopoverTrigger } from './popover';
export { ScrollRegion, type ScrollRegionProps } from './scroll-region';
export { SelectionCheckbox, type SelectionCheckboxProps } from './selection-checkbox';
export { StatCard, type StatCardProps } from './stat-card';
export { SearchInput, type SearchInputProps, Toolbar, ToolbarSpacer } from './toolbar';
export { useStoredState } from './use-stored-state';
