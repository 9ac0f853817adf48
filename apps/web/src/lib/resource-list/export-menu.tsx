import { EXPORT_FORMATS, type ExportFormat } from '@app/contracts';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@app/ui';
import { Braces, Download, FileSpreadsheet, FileText } from 'lucide-react';
import { toast } from '../toast';
import { exportUrl, startDownload } from './export';
import type { ListState } from './list-state';

const ICONS: Record<ExportFormat, typeof Download> = { csv: FileText, xlsx: FileSpreadsheet, json: Braces };

/** A resource's words for its export menu. */
export interface ExportMenuStrings {
  button: string;
  headingAll: (total: number, exact?: boolean) => string;
  headingSelected: (count: number) => string;
  csv: string;
  xlsx: string;
  json: string;
  started: string;
}

export interface ExportMenuProps<S extends string, F extends object> {
  /** The resource's export route (`/api/users/export`). */
  path: string;
  state: ListState<S, F>;
  columns: readonly string[];
  selectedIds?: readonly number[];
  /** How many rows match the view (for the menu's heading). */
  total: number | undefined;
  totalExact?: boolean;
  strings: ExportMenuStrings;
}

export function ExportMenu<S extends string, F extends object>({
  path,
  state,
  columns,
  selectedIds = [],
  total,
  totalExact = true,
  strings: t,
}: ExportMenuProps<S, F>) {
  const heading =
    selectedIds.length > 0
      ? t.headingSelected(selectedIds.length)
      : total !== undefined
        ? t.headingAll(total, totalExact)
        : null;

  const download = (format: ExportFormat) => {
    startDownload(exportUrl(path, state, format, columns, selectedIds));
    toast(t.started);
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={t.button} className="px-2.5 sm:px-3">
          <Download aria-hidden="true" />
          <span className="hidden sm:inline">{t.button}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {heading ? <DropdownMenuLabel>{heading}</DropdownMenuLabel> : null}
        {EXPORT_FORMATS.map((format) => {
          const Icon = ICONS[format];
          return (
            <DropdownMenuItem key={format} onSelect={() => download(format)}>
              <Icon aria-hidden="true" />
              {t[format]}
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
