// Every date and time the SPA shows is written here, so a day reads the same in a table, a
// chip, a sentence and a tooltip. Formatters are built once per locale and style: a table of
// a hundred rows would otherwise build hundreds of them per render.

const STYLES = {
  /** "Nov 28, 2026": a table's dates, a token's expiry. */
  day: { dateStyle: 'medium' },
  /** A calendar day the URL holds (a date filter's bound), read as that day wherever the browser is. */
  utcDay: { dateStyle: 'medium', timeZone: 'UTC' },
  /** "Nov 28, 2026, 9:30 AM": when something happened. */
  dayTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** The instant in full, time zone included: a tooltip over a shorter date. */
  full: { dateStyle: 'full', timeStyle: 'long' },
  /** "9:30:12 AM": a moment today (the status page's last check). */
  time: { timeStyle: 'medium' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof STYLES;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** An instant (ISO string, epoch milliseconds or Date) in one of the SPA's styles. */
export function formatDate(value: string | number | Date, style: DateStyle, locale: string): string {
  const key = `${locale} ${style}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, STYLES[style]);
    formatters.set(key, format);
  }
  return format.format(value instanceof Date ? value : new Date(value));
}

// Largest unit first: "3 days ago" rather than "72 hours ago".
const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "in 3 days": how far an instant is from `now`, in the locale's words. */
export function relativeTime(iso: string, locale: string, now: number = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}
