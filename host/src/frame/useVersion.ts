import { useEffect } from 'react';
import { useGetVersionQuery } from '../shell-api';

const VERSION_KEY = 'version';

function storedVersion(): string | null {
  try {
    return globalThis.localStorage?.getItem(VERSION_KEY) ?? null;
  } catch {
    return null;
  }
}

/** The product version (`GET /version`), kept locally so the menu shows it at once on the next visit. */
export function useVersion(): string | null {
  const { data } = useGetVersionQuery();
  useEffect(() => {
    if (!data?.version) return;
    try {
      globalThis.localStorage?.setItem(VERSION_KEY, data.version);
    } catch {
      // the version is shown anyway
    }
  }, [data?.version]);
  return data?.version ?? storedVersion();
}
