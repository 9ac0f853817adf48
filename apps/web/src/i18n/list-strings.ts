// Words every list page shares, whatever it lists: a resource names its noun and its own few
// words once, and `listStrings` writes the rest, in the shape the kit's view reads.
/** Counts in this catalogue's language (1,234). */
export const formatCount = (count: number) => count.toLocaleString('en');
/** A count the server gave as a lower bound reads "10,000+". */
export const atLeast = (count: number, exact: boolean) => `${formatCount(count)}${exact ? '' : '+'}`;

/** The table's view controls (columns, density). */
export const listViewStrings = {
  columns: 'Columns',
  columnsHeading: 'Show columns',
  showAllColumns: 'Show all columns',
  density: 'Row density',
  compact: 'Compact rows',
  comfortable: 'Comfortable rows',
  sortBy: 'Sort by',
  sortDefault: 'Default order',
  sortAscending: (column: string) => `${column}, ascending`,
  sortDescending: (column: string) => `${column}, descending`,
};

/** Pagination; `nothing` is what an empty list says ("No users to show"). */
export const listPaginationStrings = (nothing: string) => ({
  navigation: 'Pages',
  perPage: 'Rows per page',
  range: (from: number, to: number, total: number, exact = true) =>
    total === 0 ? nothing : `Showing ${formatCount(from)}–${formatCount(to)} of ${atLeast(total, exact)}`,
  page: (page: number, pageCount: number, exact = true) => `Page ${formatCount(page)} of ${atLeast(pageCount, exact)}`,
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
});

/** The filter form's and chips' own words. */
export const listFilterStrings = {
  button: 'Filters',
  buttonCount: (count: number) => `Filters, ${count} applied`,
  apply: 'Apply filters',
  reset: 'Reset',
  chipsLabel: 'Applied filters',
  removeChip: (label: string, value: string) => `Remove filter ${label}: ${value}`,
  clearAll: 'Clear all',
};

/** What a resource says about itself; everything else a list shows is written from it. */
export interface ListWords {
  /** The noun, singular and plural ("user", "users"). */
  one: string;
  many: string;
  /** The table's accessible name ("Users"). */
  label: string;
  search: { label: string; placeholder: string };
  /** The empty state of a list with nothing in it at all. */
  noneTitle: string;
  noneBody: string;
  /** The empty state of a search or filter that matches nothing: how to widen it. */
  noMatchBody: string;
  /** Where the plural reads oddly ("The audit log could not be loaded"). */
  errorTitle?: string;
}

/** A list's strings in the kit's shape: search, filters, chips, table, pagination, empty and error states, export, selection. */
export function listStrings(w: ListWords) {
  const counted = (count: number) => `${formatCount(count)} ${count === 1 ? w.one : w.many}`;
  const One = `${w.one.charAt(0).toUpperCase()}${w.one.slice(1)}`;
  return {
    search: { ...w.search, clear: 'Clear search' },
    filters: { ...listFilterStrings, heading: `Filter ${w.many}`, chip: { search: 'Search' } },
    table: { label: w.label, loading: `Loading ${w.many}…` },
    pagination: listPaginationStrings(`No ${w.many} to show`),
    view: listViewStrings,
    empty: {
      noneTitle: w.noneTitle,
      noneBody: w.noneBody,
      noMatchTitle: `No ${w.many} match`,
      noMatchBody: w.noMatchBody,
      clearFilters: 'Clear filters',
    },
    error: { title: w.errorTitle ?? `The ${w.many} could not be loaded`, retry: 'Try again' },
    export: {
      button: 'Export',
      headingAll: (total: number, exact = true) =>
        `Export ${exact ? counted(total) : `${atLeast(total, false)} ${w.many}`} matching`,
      headingSelected: (count: number) => `Export ${counted(count)} selected`,
      csv: 'CSV',
      xlsx: 'Excel (.xlsx)',
      json: 'JSON',
      started: 'Your export is downloading.',
    },
    selection: {
      label: 'Selection',
      count: (count: number) => `${formatCount(count)} selected`,
      page: (count: number) => `All ${counted(count)} on this page are selected.`,
      selectAllMatching: (total: number, exact = true) => `Select all ${atLeast(total, exact)} matching`,
      allMatching: (total: number, exact = true) => `All ${atLeast(total, exact)} matching`,
      except: (count: number) => `${formatCount(count)} left out`,
      clear: 'Clear selection',
      actionsLabel: `Actions on the selected ${w.many}`,
    },
    /** The dialogs of a bulk action; the action's own words come from its declaration. */
    bulk: {
      cancel: 'Cancel',
      retry: 'Check again',
      checking: 'Checking what would change…',
      /** The confirm button while the dry run runs: it names no count before there is one. */
      checkingButton: 'Checking…',
      /** The (disabled) confirm button once the check found nobody the action would change. */
      nothingButton: 'Nothing to change',
      checkFailed: 'The check could not be run.',
      nothingToDo: `None of the selected ${w.many} can be changed this way.`,
      skipped: (count: number) => `${formatCount(count)} skipped`,
      /** Names the scrolling list of them. */
      skippedList: `Skipped ${w.many}`,
      noneSkipped: 'none skipped.',
      /** A skipped record whose name is not known. */
      unnamed: (id: number) => `${One} #${id}`,
      moreSkipped: (count: number) => `…and ${formatCount(count)} more`,
      doneSkipped: (count: number) => `${formatCount(count)} skipped: the rules did not allow them.`,
      // Every match, through a background job.
      titleAll: (verb: string, total: number, exact: boolean) =>
        `${verb} all ${atLeast(total, exact)} matching ${w.many}?`,
      checkingAll: `Checking every matching ${w.one} (nothing changes yet)…`,
      checkAllFailed: 'The check did not finish.',
      wouldChange: (count: number) => `${counted(count)} would be changed`,
      confirmAll: (verb: string, count: number) => `${verb} ${counted(count)}`,
      /** The confirm button when the check did not finish: the selection as chosen. */
      confirmMatching: (verb: string, total: number, exact: boolean) =>
        `${verb} all ${atLeast(total, exact)} matching ${w.many}`,
    },
  };
}

/** Every list's strings, as the kit's view reads them. */
export type ListStrings = ReturnType<typeof listStrings>;
