const STORAGE_KEY = 'evident.apiKey';

/** The API key lives in localStorage so a reload keeps the user signed in; "Change key" forgets it. */
export const apiKeyStorage = {
  read: (): string | undefined => localStorage.getItem(STORAGE_KEY) ?? undefined,
  write: (key: string): void => localStorage.setItem(STORAGE_KEY, key),
  forget: (): void => localStorage.removeItem(STORAGE_KEY),
};
