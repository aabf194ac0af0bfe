import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiError, type ApiError } from '../api/api-error.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  reload: () => Promise<void>;
}

/** What `load` resolves to, loaded now and again on `reload`; its failure as an ApiError. The latest call wins. */
export function useLoaded<T>(load: () => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const latest = useRef(0);

  const reload = useCallback(async () => {
    const call = ++latest.current;
    try {
      const value = await load();
      if (call !== latest.current) return;
      setData(value);
      setError(undefined);
    } catch (failure) {
      if (call === latest.current) setError(toApiError(failure));
    }
  }, [load]);

  useEffect(() => {
    void reload();
    return () => {
      latest.current++;
    };
  }, [reload]);

  return { data, error, reload };
}
