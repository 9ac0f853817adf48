/** A cell's text as a screen reader gets it: without what is hidden from it (a phone-only label). */
const spokenText = (cell: Element) => {
  const copy = cell.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return copy.textContent;
};

/** A table's body rows, each as the text of its cells (header cells included), in order. */
export const bodyRowsOf = (table: HTMLElement) =>
  [...table.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map(spokenText));
