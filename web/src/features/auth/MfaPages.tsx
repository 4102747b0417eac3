import type { Me } from '@eelarve/shared';
import { useNavigate, useSearchParams } from 'react-router';
import { useCurrentUser, useLogout, useStartSession } from '../../app/session';
import { postLoginTarget } from '../../app/session/session-storage';
import { AuthHeading } from '../../components/AuthHeading';
import { upgradeSessionToMfa } from '../../components/mfa/api';
import { MfaCodeForm } from '../../components/mfa/MfaCodeForm';
import { MfaSetupPanel } from '../../components/mfa/MfaSetupPanel';
import { useToasts } from '../../components/Toasts';
import { useLocale } from '../../i18n/I18nProvider';
import { isLocaleCode } from '../../i18n/locale-storage';

/** Navigation state that stops /select-occupation from sending the user straight back here. */
export interface SelectOccupationState {
  noAutomaticMfa?: boolean;
}

function useOccupationParam(): string | undefined {
  const [params] = useSearchParams();
  return params.get('occupationId') ?? undefined;
}

/** After the code: the session is an MFA session; on to the stored redirect or home (spec 1, section 4). */
function useFinish(): (me: Me) => void {
  const startSession = useStartSession();
  const navigate = useNavigate();
  const { locale, setLocale } = useLocale();
  return (me: Me) => {
    if (isLocaleCode(me.userLanguage) && me.userLanguage !== locale) setLocale(me.userLanguage);
    startSession(me);
    navigate(postLoginTarget(me), { replace: true });
  };
}

/** Spec 1, section 2: cancel returns to occupation selection, or logs out with only one occupation. */
function useCancel(): { cancel: () => void; busy: boolean } {
  const me = useCurrentUser();
  const navigate = useNavigate();
  const { showError } = useToasts();
  const signOut = useLogout({ onError: showError });
  const cancel = () => {
    if (me.occupations.length > 1) {
      navigate('/select-occupation', { replace: true, state: { noAutomaticMfa: true } satisfies SelectOccupationState });
    } else {
      signOut.mutate(false);
    }
  };
  return { cancel, busy: signOut.isPending };
}

/** /enter-mfa-code: the six-digit code of the authenticator app upgrades the session. */
export function EnterMfaCodePage() {
  const occupationId = useOccupationParam();
  const finish = useFinish();
  const { cancel, busy } = useCancel();
  return (
    <div className="auth-page" data-testid="enter-mfa-code">
      <AuthHeading titleId="mfa.enter.title" descriptionId="mfa.enter.description" />
      <MfaCodeForm
        send={(code) => upgradeSessionToMfa(occupationId ? { code, occupationId } : { code })}
        onDone={finish}
        onCancel={cancel}
        disabled={busy}
        submitLabel="mfa.enter.submit"
        testId="enter-mfa-code-form"
      />
    </div>
  );
}

/** /setup-mfa: the secret (QR code and text) and the confirming code. */
export function SetupMfaPage() {
  const occupationId = useOccupationParam();
  const finish = useFinish();
  const { cancel } = useCancel();
  return (
    <div className="auth-page auth-page-wide" data-testid="setup-mfa">
      <AuthHeading titleId="mfa.setup.title" descriptionId="mfa.setup.description" />
      <MfaSetupPanel occupationId={occupationId} onConfirmed={finish} onCancel={cancel} />
    </div>
  );
}
