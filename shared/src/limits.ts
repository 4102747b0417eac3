/** Business constants and limits (spec 1, section 9; spec 2, section 9). */
export const LIMITS = {
  text: 256,
  url: 2048,
  textArea: 4096,
  passwordMinLength: 8,
  mfaCodeLength: 6,
  sessionLengthMaxDays: 180,
  decimalPlacesMax: 5,
  /** The largest value of a read model's `integer` column (PostgreSQL int4): orders and counts. */
  integerMax: 2_147_483_647,
  integerMin: -2_147_483_648,
} as const;

export const MS_PER_DAY = 86_400_000;
export const MS_PER_HOUR = 3_600_000;

/** sessionLengthMultiplier is a number of milliseconds: a day (default) or an hour. */
export const SESSION_LENGTH_MULTIPLIERS = [MS_PER_DAY, MS_PER_HOUR] as const;

/** Unused query data is kept and refetched after 180 s. */
export const QUERY_CACHE_MS = 180_000;
