import { EXPORT_FORMATS, type ExportFormat, type UserColumnKey } from '@app/contracts';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@app/ui';
import { Braces, Download, FileSpreadsheet, FileText } from 'lucide-react';
import { toast } from 'sonner';
import { useMessages } from '../../../i18n/messages';
import { startDownload, usersExportUrl } from './users-export';
import type { UsersListState } from './users-list-state';

const ICONS: Record<ExportFormat, typeof Download> = { csv: FileText, xlsx: FileSpreadsheet, json: Braces };

export interface UsersExportMenuProps {
  state: UsersListState;
  columns: readonly UserColumnKey[];
  selectedIds: readonly number[];
  /** How many users match the view (for the menu's heading). */
  total: number | undefined;
  totalExact?: boolean;
}

export function UsersExportMenu({ state, columns, selectedIds, total, totalExact = true }: UsersExportMenuProps) {
  const m = useMessages();
  const t = m.usersList.export;
  const heading =
    selectedIds.length > 0
      ? t.headingSelected(selectedIds.length)
      : total !== undefined
        ? t.headingAll(total, totalExact)
        : null;

  const download = (format: ExportFormat) => {
    startDownload(usersExportUrl(state, format, columns, selectedIds));
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
