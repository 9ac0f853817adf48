import { useImportMessages } from './import-messages';
import { IMPORT_FIELDS, type ImportFilePreview, type ImportTarget } from '@app/contracts';

/** A file as read: a dry run's (rows counted), or a refused one's (read no further than its first rows). */
type ReadFile = ImportFilePreview & { rows?: number };
import { NativeSelect } from '@app/ui';
import { formatCount } from '../../i18n/list-strings';
import { useImportAttributes } from './use-import-attributes';

type Mapping = Record<string, ImportTarget | 'ignore'>;

const cell = 'px-3 py-2 text-left align-middle';
const headCell = `${cell} text-xs font-medium text-muted-foreground`;

/** What the server detected: format, encoding, delimiter, sheet, rows. */
function FileFacts({ file }: { file: ReadFile }) {
  const m = useImportMessages();
  const t = m.imports.read;
  const items = [
    { term: t.format, description: m.imports.formats[file.format] },
    ...(file.format === 'csv'
      ? [
          { term: t.encoding, description: file.encoding ? m.imports.encodings[file.encoding] : t.none },
          { term: t.delimiter, description: file.delimiter ? m.imports.delimiters[file.delimiter] : t.none },
        ]
      : []),
    ...(file.format === 'xlsx' ? [{ term: t.sheet, description: file.sheet ?? t.none }] : []),
    { term: t.rows, description: file.rows === undefined ? t.none : formatCount(file.rows) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {items.map((item) => (
        <div key={item.term} className="rounded-lg border border-border bg-surface-muted/40 px-3 py-2">
          <dt className="text-xs text-muted-foreground">{item.term}</dt>
          <dd className="mt-0.5 text-sm font-semibold break-words text-foreground">{item.description}</dd>
        </div>
      ))}
    </dl>
  );
}

/** "Column in your file → Field": one select per column, pre-filled with how the server read it. */
function ColumnMapping({
  file,
  map,
  onMap,
  disabled,
}: {
  file: ReadFile;
  map: Mapping;
  onMap: (header: string, field: ImportTarget | 'ignore') => void;
  disabled: boolean;
}) {
  const m = useImportMessages();
  const t = m.imports.read;
  const { targets } = useImportAttributes();
  return (
    <div className="overflow-hidden rounded-lg border border-border">
      <table className="w-full text-sm">
        <caption className="sr-only">{t.mappingCaption}</caption>
        <thead className="bg-surface-muted/40">
          <tr>
            <th scope="col" className={headCell}>
              {t.column}
            </th>
            <th scope="col" className={headCell}>
              {t.field}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-border border-t border-border">
          {file.columns.map((column, index) => (
            // Headers may repeat (several role columns); the position tells them apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: the columns' order is the file's and never changes
            <tr key={`${index}-${column.header}`}>
              <th scope="row" className={`${cell} font-medium break-all text-foreground`}>
                {column.header}
              </th>
              <td className={`${cell} w-1/2`}>
                <NativeSelect
                  aria-label={t.fieldFor(column.header)}
                  value={map[column.header] ?? column.field ?? 'ignore'}
                  disabled={disabled}
                  onChange={(event) => onMap(column.header, event.currentTarget.value as ImportTarget | 'ignore')}
                >
                  {IMPORT_FIELDS.map((field) => (
                    <option key={field} value={field}>
                      {m.imports.fields[field]}
                    </option>
                  ))}
                  {targets.length > 0 ? (
                    <optgroup label={t.attributes}>
                      {targets.map((target) => (
                        <option key={target.value} value={target.value}>
                          {target.label}
                        </option>
                      ))}
                    </optgroup>
                  ) : null}
                  <option value="ignore">{t.ignore}</option>
                </NativeSelect>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The first rows as the server read them, cell by cell in the columns' order. */
function SampleRows({ file }: { file: ReadFile }) {
  const t = useImportMessages().imports.read;
  if (file.sample.length === 0) return null;
  return (
    <div>
      <h3 className="text-sm font-semibold text-foreground">{t.sampleTitle}</h3>
      {/* Focusable, so that keyboard users can scroll a wide sample sideways. */}
      <section
        aria-label={t.sampleCaption}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        className="mt-2 overflow-x-auto rounded-lg border border-border focus-visible:outline-2 focus-visible:outline-ring"
      >
        <table className="w-full text-sm">
          <caption className="sr-only">{t.sampleCaption}</caption>
          <thead className="bg-surface-muted/40">
            <tr>
              {file.columns.map((column, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: headers may repeat; positions do not
                <th key={index} scope="col" className={`${headCell} whitespace-nowrap`}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-border border-t border-border">
            {file.sample.map((row, r) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the sample is fixed for this dry run
              <tr key={r}>
                {row.map((value, c) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                  <td key={c} className={`${cell} max-w-60 truncate whitespace-nowrap text-foreground`}>
                    {value}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** Step 2: what the server read from the file, and the column mapping the user can correct. */
export function FileRead({
  file,
  map,
  onMap,
  disabled,
}: {
  file: ReadFile;
  map: Mapping;
  onMap: (header: string, field: ImportTarget | 'ignore') => void;
  disabled: boolean;
}) {
  const t = useImportMessages().imports.read;
  return (
    <div className="space-y-5">
      <FileFacts file={file} />
      <ColumnMapping file={file} map={map} onMap={onMap} disabled={disabled} />
      {file.unknown.length > 0 ? (
        <p className="text-sm text-muted-foreground">{t.unknown(file.unknown.join(', '))}</p>
      ) : null}
      <SampleRows file={file} />
    </div>
  );
}
