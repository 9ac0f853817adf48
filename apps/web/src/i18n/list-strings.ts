// Words every list page shares, whatever it lists; a page names only its own noun.
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
