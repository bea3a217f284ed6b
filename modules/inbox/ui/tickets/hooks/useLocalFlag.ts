import { useCallback, useState } from 'react';

function read(key: string, fallback: boolean): boolean {
  try {
    const value = globalThis.localStorage?.getItem(key);
    return value === null || value === undefined ? fallback : value === 'true';
  } catch {
    return fallback;
  }
}

/** A boolean preference kept on this device (the composer's signature toggle, docs/product/tickets-and-inbox.md#screens-and-routes). */
export function useLocalFlag(key: string, fallback: boolean): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => read(key, fallback));
  const update = useCallback(
    (next: boolean) => {
      setValue(next);
      try {
        globalThis.localStorage?.setItem(key, String(next));
      } catch {
        // private mode: the choice lasts for this page only
      }
    },
    [key],
  );
  return [value, update];
}
