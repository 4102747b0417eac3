/** The organisation's date formats (spec 1, section 9): dd.MM.yyyy (default), yyyy-MM-dd, with HH:mm. */
export const DEFAULT_DATE_FORMAT = 'dd.MM.yyyy';

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** Formats an ISO timestamp or date in local time with a pattern of dd, MM, yyyy, HH and mm. */
export function formatDate(value: string | Date | null | undefined, pattern: string = DEFAULT_DATE_FORMAT): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return pattern.replace(/yyyy|MM|dd|HH|mm/g, (token) => {
    switch (token) {
      case 'yyyy':
        return pad(date.getFullYear(), 4);
      case 'MM':
        return pad(date.getMonth() + 1);
      case 'dd':
        return pad(date.getDate());
      case 'HH':
        return pad(date.getHours());
      default:
        return pad(date.getMinutes());
    }
  });
}
