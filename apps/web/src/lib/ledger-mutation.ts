import { useState } from 'react';
import { useLedgerAction, type KeyFor } from './ledger-action';

// `useLedgerAction` in the shape of TanStack Query's useMutation (mutate with callbacks, isPending,
// isError, error, variables, reset), for screens built on that shape: same one-key-per-action rule.

export interface LedgerMutationCallbacks<TResult> {
  onSuccess?: (result: TResult) => void;
  onError?: (err: unknown) => void;
}

export function useLedgerMutation<TVars, TResult>(
  send: (vars: TVars, key: KeyFor) => Promise<TResult>,
  options: { onSettled?: () => void } = {},
) {
  const action = useLedgerAction(send);
  const [state, setState] = useState<{
    variables?: TVars;
    data?: TResult;
    error?: unknown;
    success: boolean;
  }>({
    success: false,
  });
  const mutate = (vars: TVars, callbacks: LedgerMutationCallbacks<TResult> = {}) => {
    if (action.busy) return;
    setState({ variables: vars, success: false });
    action.run(vars).then(
      (data) => {
        if (data === undefined) return;
        setState({ variables: vars, data, success: true });
        options.onSettled?.();
        callbacks.onSuccess?.(data);
      },
      (error: unknown) => {
        setState({ variables: vars, error, success: false });
        options.onSettled?.();
        callbacks.onError?.(error);
      },
    );
  };
  return {
    mutate,
    isPending: action.busy,
    isError: state.error !== undefined,
    isSuccess: state.success,
    error: state.error,
    data: state.data,
    variables: state.variables,
    reset: () => setState({ success: false }),
  };
}
