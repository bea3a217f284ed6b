import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Baileys gives every socket its own `AsyncLocalStorage` (the key store's transactions, `addTransactionCapability`)
 * and never disables it. On Node 20 every enabled storage is visited each time any promise or other async
 * resource is created in the process, so each socket a process ever made — one per reconnect, per session —
 * adds to the cost of every `await` of the whole server for the rest of its life (a profile of 20 sessions
 * showed ~10 % of the server's CPU in `async_hooks` `_propagate`). This finds the storage of a socket's key
 * store so that the session can disable it once the socket is gone.
 */

/** The key store's storage of a Baileys socket: read through its one synchronous use, `isInTransaction()`. */
export function transactionStorageOf(keys: { isInTransaction?: () => boolean }): AsyncLocalStorage<unknown> | null {
  if (typeof keys.isInTransaction !== 'function') return null;
  const prototype = AsyncLocalStorage.prototype as AsyncLocalStorage<unknown>;
  const getStore = prototype.getStore;
  let found: AsyncLocalStorage<unknown> | null = null;
  prototype.getStore = function (this: AsyncLocalStorage<unknown>) {
    found ??= this;
    return getStore.call(this);
  };
  try {
    keys.isInTransaction();
  } finally {
    prototype.getStore = getStore;
  }
  return found;
}

/**
 * Keeps a socket's storage enabled only while one of its key store's transactions runs: `transaction` is
 * wrapped (Baileys calls it through the keys object) to count the running ones and disable the storage when
 * the last ends; the next `run` enables it again. With many sessions in a process, the storages of the idle
 * ones then cost the process's promises nothing. Work a transaction started and didn't await finds no store
 * afterwards, so it reads and writes keys directly rather than into a transaction already committed.
 */
export function enableOnlyInTransactions(
  keys: { transaction?: (...args: never[]) => Promise<unknown> },
  storage: AsyncLocalStorage<unknown> | null,
): void {
  const transaction = keys.transaction;
  if (!storage || typeof transaction !== 'function') return;
  let running = 0;
  keys.transaction = async function (this: unknown, ...args: never[]) {
    running += 1;
    try {
      return await transaction.apply(this, args);
    } finally {
      running -= 1;
      if (running === 0) storage.disable();
    }
  };
}

/**
 * Disables a gone socket's storage after `delayMs`, when what the socket still had in flight (a message being
 * stored) is done: a transaction that outlived it would otherwise find no store and write its keys one by one.
 */
export function retireTransactionStorage(storage: AsyncLocalStorage<unknown> | null, delayMs: number): void {
  if (!storage) return;
  const timer = setTimeout(() => storage.disable(), delayMs);
  timer.unref();
}
