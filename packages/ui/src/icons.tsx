import {
  ArrowDown,
  ArrowUp,
  ArrowUpDown,
  Check,
  ChevronDown,
  ChevronLeft,
  ChevronRight,
  ChevronsLeft,
  ChevronsRight,
  CircleAlert,
  CircleCheck,
  Columns3,
  Eye,
  EyeOff,
  Info,
  Lock,
  type LucideIcon,
  type LucideProps,
  Minus,
  Rows2,
  Rows4,
  Search,
  TriangleAlert,
  X,
} from 'lucide-react';
import { cn } from './cn';

/**
 * The glyphs the generic parts draw, from lucide (the SPA's icon set), at the size the parts
 * expect unless a class says otherwise. Always decorative: the control around them carries
 * the name.
 */
function glyph(Glyph: LucideIcon) {
  return function Icon({ className, ...rest }: LucideProps) {
    return <Glyph aria-hidden="true" className={cn('size-4 shrink-0', className)} {...rest} />;
  };
}

export const CheckIcon = glyph(Check);
export const MinusIcon = glyph(Minus);
export const XIcon = glyph(X);
export const ChevronLeftIcon = glyph(ChevronLeft);
export const ChevronRightIcon = glyph(ChevronRight);
export const ChevronsLeftIcon = glyph(ChevronsLeft);
export const ChevronsRightIcon = glyph(ChevronsRight);
export const ChevronDownIcon = glyph(ChevronDown);
export const ArrowUpIcon = glyph(ArrowUp);
export const ArrowDownIcon = glyph(ArrowDown);
export const ArrowUpDownIcon = glyph(ArrowUpDown);
export const SearchIcon = glyph(Search);
export const ColumnsIcon = glyph(Columns3);
export const RowsCompactIcon = glyph(Rows4);
export const RowsComfortableIcon = glyph(Rows2);
export const EyeIcon = glyph(Eye);
export const EyeOffIcon = glyph(EyeOff);
export const AlertCircleIcon = glyph(CircleAlert);
export const AlertTriangleIcon = glyph(TriangleAlert);
export const InfoIcon = glyph(Info);
export const CheckCircleIcon = glyph(CircleCheck);
export const LockIcon = glyph(Lock);
