import { formatDate } from '../../../i18n/format';

/**
 * Past moments of the report (issue 12, point 7) as the picker and the titles need them: the
 * picker's `datetime-local` value is the user's own time zone, the request carries ISO time, and
 * labels follow the organisation's date format with the time of day.
 */

/** An ISO time as a `datetime-local` value (yyyy-MM-ddTHH:mm:ss) in the browser's time zone. */
export function toLocalInput(iso: string | Date): string {
  return formatDate(iso, 'yyyy-MM-ddTHH:mm:ss');
}

/** A `datetime-local` value (read in the browser's time zone) as ISO time; undefined when it is no time. */
export function fromLocalInput(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Whether a moment lies in the document's lifetime: from its creation up to now. */
export function momentWithin(iso: string, createdAt: string, now: Date = new Date()): boolean {
  const time = new Date(iso).getTime();
  const created = new Date(createdAt).getTime();
  // The picker works in whole seconds: the creation's own second counts.
  return time >= Math.floor(created / 1000) * 1000 && time <= now.getTime();
}

/** A moment as the organisation writes dates, with the time of day (seconds only when it has them). */
export function momentLabel(iso: string, dateFormat: string): string {
  return formatDate(iso, `${dateFormat} HH:mm${new Date(iso).getSeconds() > 0 ? ':ss' : ''}`);
}
