import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { errorCodeOf } from '../api';
import { errorMessageKey } from '../i18n/keys';
import type { MessageKey } from '../i18n/messages';
import { CloseIcon } from './Modal';

interface Toast {
  id: number;
  code: string;
  /** The action's own failure message; the server code's message is then shown below it as detail. */
  message?: MessageKey;
  /** A success message (no error code): shown alone, with its values. */
  success?: { message: MessageKey; values?: Record<string, string | number> };
}

interface ToastContextValue {
  /** Shows the translated error code of `error` (spec 1, section 8: server errors are toasts). */
  showError: (error: unknown) => void;
  /**
   * Shows an action's own failure message (spec 2, section 8: `dashboard.budget.form.createError`, ...)
   * with the translated error code of `error` below it as detail (none when `error` is undefined:
   * a job that failed on the server has no error code to show).
   */
  showFailure: (message: MessageKey, error: unknown) => void;
  /** Shows that an action succeeded (spec 3, section 8: 'importRecordsSuccess', 'bulkEditSuccess', ...). */
  showSuccess: (message: MessageKey, values?: Record<string, string | number>) => void;
}

const ToastContext = createContext<ToastContextValue | null>(null);
const TOAST_MS = 8000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const intl = useIntl();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);

  const show = useCallback(
    (error: unknown, message?: MessageKey) => {
      const code = error === undefined && message ? '' : errorCodeOf(error);
      // A 401 is handled by the session-expiry flow (warning on the login page), not by a toast.
      if (code === 'UNAUTHORIZED') return;
      const id = nextId.current++;
      setToasts((current) => [...current.slice(-3), { id, code, message }]);
      window.setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );
  const showError = useCallback((error: unknown) => show(error), [show]);
  const showFailure = useCallback((message: MessageKey, error: unknown) => show(error, message), [show]);
  const showSuccess = useCallback(
    (message: MessageKey, values?: Record<string, string | number>) => {
      const id = nextId.current++;
      setToasts((current) => [...current.slice(-3), { id, code: '', success: { message, values } }]);
      window.setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );

  const value = useMemo(() => ({ showError, showFailure, showSuccess }), [showError, showFailure, showSuccess]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={toast.success ? 'toast toast-success' : 'toast toast-error'}
            role={toast.success ? 'status' : 'alert'}
            data-testid="toast"
            data-error-code={toast.success ? undefined : toast.code}
            data-message={toast.success?.message ?? toast.message}
          >
            {toast.success ? (
              <span>
                <FormattedMessage id={toast.success.message} values={toast.success.values} />
              </span>
            ) : toast.message ? (
              <span className="toast-text">
                <strong className="toast-title" data-testid="toast-title">
                  <FormattedMessage id={toast.message} />
                </strong>
                {toast.code ? (
                  <span className="toast-detail" data-testid="toast-detail">
                    <FormattedMessage id={errorMessageKey(toast.code)} />
                  </span>
                ) : null}
              </span>
            ) : (
              <span>
                <FormattedMessage id={errorMessageKey(toast.code)} />
              </span>
            )}
            <button type="button" className="icon-button" onClick={() => dismiss(toast.id)} aria-label={intl.formatMessage({ id: 'common.dismiss' })}>
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
