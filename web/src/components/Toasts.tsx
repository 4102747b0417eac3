import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorCodeOf } from '../api';
import { errorMessageKey } from '../i18n/keys';
import { CloseIcon } from './Modal';

interface Toast {
  id: number;
  code: string;
}

interface ToastContextValue {
  /** Shows the translated error code of `error` (spec 1, section 8: server errors are toasts). */
  showError: (error: unknown) => void;
}

const ToastContext = createContext<ToastContextValue | null>(null);
const TOAST_MS = 8000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const intl = useIntl();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);

  const showError = useCallback(
    (error: unknown) => {
      const code = errorCodeOf(error);
      // A 401 is handled by the session-expiry flow (warning on the login page), not by a toast.
      if (code === 'UNAUTHORIZED') return;
      const id = nextId.current++;
      setToasts((current) => [...current.slice(-3), { id, code }]);
      window.setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );

  const value = useMemo(() => ({ showError }), [showError]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className="toast toast-error" role="alert" data-testid="toast" data-error-code={toast.code}>
            <span>
              <FormattedMessage id={errorMessageKey(toast.code)} />
            </span>
            <button
              type="button"
              className="icon-button"
              onClick={() => dismiss(toast.id)}
              aria-label={intl.formatMessage({ id: 'common.dismiss' })}
            >
              <CloseIcon />
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToasts(): ToastContextValue {
  const value = useContext(ToastContext);
  if (!value) throw new Error('useToasts must be used inside ToastProvider');
  return value;
}
