import type { MessageKey } from '../../i18n/messages';

/** A success (or import failure) message above the items (spec 2, section 8). */
export interface Notice {
  key: MessageKey;
  values?: Record<string, number>;
  failed?: boolean;
}
