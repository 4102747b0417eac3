import { FormattedMessage } from 'react-intl';
import { useSearchParams } from 'react-router';
import { Alert } from '../../components/Alert';
import type { MessageKey } from '../../i18n/messages';

/** Why an electronic-ID round trip failed (`eidReason`, set by the server next to `eidError=true`). */
const REASONS: Record<string, MessageKey> = {
  CANCELLED: 'electronicId.reason.CANCELLED',
  NOT_CONFIGURED: 'electronicId.reason.NOT_CONFIGURED',
  PERSONAL_CODE_IN_USE: 'electronicId.reason.PERSONAL_CODE_IN_USE',
  EMAIL_NOT_CONFIRMED: 'electronicId.reason.EMAIL_NOT_CONFIRMED',
  INVALID_TOKEN: 'electronicId.reason.INVALID_TOKEN',
  SESSION_CHANGED: 'electronicId.reason.SESSION_CHANGED',
};

/**
 * The persistent message of a failed electronic-ID flow (spec 1, section 8: "user not found or
 * authentication failed"), with the reason when it tells the user something more.
 */
export function ElectronicIdFailure({ titleKey, testId }: { titleKey: MessageKey; testId: string }) {
  const [params] = useSearchParams();
  if (params.get('eidError') !== 'true') return null;
  const reason = params.get('eidReason') ?? '';
  const detail = Object.hasOwn(REASONS, reason) ? REASONS[reason] : undefined;
  return (
    <Alert kind="error" title={<FormattedMessage id={titleKey} />} testId={testId}>
      {detail ? (
        <span data-reason={reason}>
          <FormattedMessage id={detail} />
        </span>
      ) : null}
    </Alert>
  );
}
