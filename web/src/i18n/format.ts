/** The organisation's date formats (spec 1, section 9): dd.MM.yyyy (default), yyyy-MM-dd, with HH:mm. */
export const DEFAULT_DATE_FORMAT = 'dd.MM.yyyy';

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** Formats an ISO timestamp or date in local time with a pattern of dd, MM, yyyy, HH, mm and ss. */
export function formatDate(value: string | Date | null | undefined, pattern: string = DEFAULT_DATE_FORMAT): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return pattern.replace(/yyyy|MM|dd|HH|mm|ss/g, (token) => {
    switch (token) {
      case 'yyyy':
        return pad(date.getFullYear(), 4);
      case 'MM':
        return pad(date.getMonth() + 1);
      case 'dd':
        return pad(date.getDate());
      case 'HH':
        return pad(date.getHours());
      case 'ss':
        return pad(date.getSeconds());
      default:
        return pad(date.getMinutes());
    }
  });
}

/** How amounts are shown (spec 3, section 9): 0-5 decimal places and a comma or dot separator. */
export interface AmountFormat {
  decimalPlaces: number;
  decimalSeparator: ',' | '.';
}

export const DEFAULT_AMOUNT_FORMAT: AmountFormat = { decimalPlaces: 2, decimalSeparator: ',' };

/** The amount format of the organisation's locale settings (`decimalPlaces`, `decimalSeparator`: comma or dot). */
export function amountFormatOf(settings: Record<string, string> | null | undefined): AmountFormat {
  const places = Number(settings?.decimalPlaces);
  return {
    decimalPlaces: Number.isInteger(places) && places >= 0 && places <= 5 ? places : DEFAULT_AMOUNT_FORMAT.decimalPlaces,
    decimalSeparator: settings?.decimalSeparator === 'dot' ? '.' : DEFAULT_AMOUNT_FORMAT.decimalSeparator,
  };
}

/**
 * An exact decimal text (a canonical amount, or one already rounded) shown with a no-break space
 * between thousands and the chosen separator; the caller rounds (shared `roundAmount`), so no
 * binary floating point touches the amount.
 */
export function formatFixedAmount(fixed: string, separator: AmountFormat['decimalSeparator']): string {
  const negative = fixed.startsWith('-');
  const [whole = '0', fraction] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `${separator}${fraction}`}`;
}
