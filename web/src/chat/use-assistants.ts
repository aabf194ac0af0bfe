import type { Assistant, Client } from '@langchain/langgraph-sdk';
import { useEffect, useState } from 'react';
import { toApiError, type ApiError } from '../api/api-error.ts';

export interface Assistants {
  list: Assistant[];
  selected: string | undefined;
  select(assistantId: string): void;
  error: ApiError | undefined;
}

/** The agents the server offers (`POST /assistants/search`); `rag` is chosen first when there is one. */
export function useAssistants(client: Client): Assistants {
  const [list, setList] = useState<Assistant[]>([]);
  const [selected, setSelected] = useState<string | undefined>();
  const [error, setError] = useState<ApiError | undefined>();

  useEffect(() => {
    let current = true;
    client.assistants.search({ limit: 100 }).then(
      (found) => {
        if (!current) return;
        setList(found);
        setSelected((previous) => previous ?? (found.find((a) => a.assistant_id === 'rag') ?? found[0])?.assistant_id);
      },
      (failure: unknown) => current && setError(toApiError(failure)),
    );
    return () => {
      current = false;
    };
  }, [client]);

  return { list, selected, select: setSelected, error };
}
