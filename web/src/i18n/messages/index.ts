import type { LocaleCode } from '@eelarve/shared';
import { en } from './en';
import { et, type MessageKey, type Messages } from './et';

export type { MessageKey, Messages };

export const catalogs: Record<LocaleCode, Messages> = { et, en };

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(et, key);
}

declare global {
  // Makes every `formatMessage({ id })` and `<FormattedMessage id>` a checked catalog key.
  namespace FormatjsIntl {
    interface Message {
      ids: MessageKey;
    }
  }
}
