import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import type { MessageKey } from '../i18n/messages';

/** A labelled form field: the label (message `labelId`) for the control `htmlFor`, then the control, hints and messages (children). */
export function FormField({ htmlFor, labelId, children }: { htmlFor: string; labelId: MessageKey; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={htmlFor}>
        <FormattedMessage id={labelId} />
      </label>
      {children}
    </div>
  );
}
