import { useEffect, useState } from 'react';

/** docs/product/tickets-and-inbox.md#constants-and-limits: list and search calls wait for a 500 ms pause. */
export const DEBOUNCE_MS = 500;

/** The value, once it has stayed the same for `delay` ms. */
export function useDebouncedValue<T>(value: T, delay: number = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** False until `delay` ms after mount (or after `key` changes), then true. */
export function useElapsed(delay: number, key?: unknown): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    setElapsed(false);
    const timer = setTimeout(() => setElapsed(true), delay);
    return () => clearTimeout(timer);
  }, [delay, key]);
  return elapsed;
}
