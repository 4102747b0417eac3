import type { UseMutationOptions } from '@tanstack/react-query';

/**
 * What a screen adds to a feature's mutation hook: its own reactions (close the modal, show a
 * message). The hook keeps the call and the invalidations, and runs them before these.
 */
export type MutationCallbacks<TData, TVariables> = Pick<UseMutationOptions<TData, Error, TVariables>, 'onSuccess' | 'onError' | 'onSettled'>;
