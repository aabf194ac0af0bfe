import { useCallback, useState } from 'react';
import { toApiError, type ApiError } from '../api/api-error.ts';

export interface Action {
  busy: boolean;
  error: ApiError | undefined;
  /** Runs `work`, keeping its failure as `error`; resolves true when it succeeded. One at a time. */
  run: (work: () => Promise<unknown>) => Promise<boolean>;
  clear: () => void;
}

/** A change the admin asked for: busy while it runs, its error (with the server's hint) when it fails. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const run = useCallback(async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (failure) {
      setError(toApiError(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(undefined), []);
  return { busy, error, run, clear };
}
