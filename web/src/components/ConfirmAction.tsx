import { type UseMutationResult, useMutation } from '@tanstack/react-query';
import { type ReactNode, useCallback, useState } from 'react';
import { ConfirmDialog } from './ConfirmDialog';
import { ErrorAlert } from './ErrorAlert';

/** A row action that is confirmed first (delete, remove…): the row asked about and the request. */
export interface ConfirmAction<T> {
  /** The row the dialog asks about; null while no dialog is open. */
  target: T | null;
  /** Opens the dialog for `item` (a previous failure is forgotten). */
  ask: (item: T) => void;
  cancel: () => void;
  mutation: UseMutationResult<unknown, Error, T>;
}

/**
 * State of a confirmed row action: `run` does the request; after it succeeded `onDone` refreshes
 * what the screen shows, then the dialog closes.
 */
export function useConfirmAction<T>({ run, onDone }: { run: (item: T) => Promise<unknown>; onDone: (item: T) => Promise<unknown> }): ConfirmAction<T> {
  const [target, setTarget] = useState<T | null>(null);
  const mutation = useMutation({
    mutationFn: run,
    onSuccess: async (_result, item) => {
      await onDone(item);
      setTarget(null);
    },
  });
  const { reset } = mutation;
  const ask = useCallback(
    (item: T) => {
      reset();
      setTarget(item);
    },
    [reset],
  );
  const cancel = useCallback(() => setTarget(null), []);
  return { target, ask, cancel, mutation };
}

/** The (danger) confirmation dialog of a `useConfirmAction`; the failure is shown inside it. */
export function ConfirmActionDialog<T>({
  action,
  testId,
  title,
  message,
  confirmLabel,
  failedTitle,
  errorTestId,
}: {
  action: ConfirmAction<T>;
  testId: string;
  title: ReactNode;
  message: (item: T) => ReactNode;
  confirmLabel: ReactNode;
  failedTitle: ReactNode;
  errorTestId: string;
}) {
  const { target, mutation } = action;
  if (target === null) return null;
  return (
    <ConfirmDialog
      testId={testId}
      danger
      title={title}
      message={message(target)}
      confirmLabel={confirmLabel}
      busy={mutation.isPending}
      onCancel={action.cancel}
      onConfirm={() => mutation.mutate(target)}
      error={mutation.isError ? <ErrorAlert error={mutation.error} title={failedTitle} testId={errorTestId} /> : null}
    />
  );
}
