import { AsyncLocalStorage } from 'node:async_hooks';
import { addTransactionCapability, type SignalKeyStore } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { silentLogger } from './testing/session-store';
import { enableOnlyInTransactions, retireTransactionStorage, transactionStorageOf } from './transaction-storage';

/** A key store of nothing: the transactions' storage is all these tests look at. */
const emptyStore: SignalKeyStore = {
  get: async () => ({}),
  set: async () => {},
};

function transactionKeys() {
  return addTransactionCapability(emptyStore, silentLogger, { maxCommitRetries: 1, delayBetweenTriesMs: 1 });
}

describe('the key store transactions storage of a Baileys socket', () => {
  it('is found through isInTransaction, and AsyncLocalStorage is left as it was', async () => {
    const getStore = AsyncLocalStorage.prototype.getStore;
    const keys = transactionKeys();
    const storage = transactionStorageOf(keys);
    expect(storage).toBeInstanceOf(AsyncLocalStorage);
    expect(AsyncLocalStorage.prototype.getStore).toBe(getStore);
    // it is the storage of these keys' transactions, not some other one
    expect(keys.isInTransaction()).toBe(false);
    let inside = false;
    await keys.transaction(async () => {
      inside = keys.isInTransaction() && storage?.getStore() !== undefined;
    }, 'probe');
    expect(inside).toBe(true);
    expect(transactionStorageOf(transactionKeys())).not.toBe(storage);
  });

  it('is enabled only while a transaction runs: nested and concurrent ones keep their store, none is left after', async () => {
    const keys = transactionKeys();
    const storage = transactionStorageOf(keys);
    enableOnlyInTransactions(keys, storage);
    let releaseFirst: () => void = () => {};
    const firstMayEnd = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const seen: string[] = [];
    let leftBehind: Promise<boolean> = Promise.resolve(true);
    const first = keys.transaction(async () => {
      await keys.transaction(async () => {
        seen.push(`nested ${keys.isInTransaction()}`);
      }, 'a');
      seen.push(`first after nested ${keys.isInTransaction()}`);
      // work the transaction starts and doesn't await
      leftBehind = new Promise((resolve) => setTimeout(() => resolve(keys.isInTransaction()), 20));
      await firstMayEnd;
      seen.push(`first at its end ${keys.isInTransaction()}`);
    }, 'a');
    await keys.transaction(async () => {
      seen.push(`second ${keys.isInTransaction()}`);
    }, 'b');
    // the second ended while the first still runs: the first keeps its store
    releaseFirst();
    await first;
    // (the second may run before the first goes on after its nested one: the order isn't the point)
    expect([...seen].sort()).toEqual(['first after nested true', 'first at its end true', 'nested true', 'second true']);
    expect(keys.isInTransaction()).toBe(false);
    expect(await leftBehind).toBe(false);
    // and the next transaction has its store again
    let again = false;
    await keys.transaction(async () => {
      again = keys.isInTransaction();
    }, 'a');
    expect(again).toBe(true);
  });

  it('answers null for a key store without transactions', () => {
    expect(transactionStorageOf({})).toBeNull();
  });

  it('is disabled after the delay: a store set before reads as none', async () => {
    const storage = new AsyncLocalStorage<number>();
    await storage.run(1, async () => {
      expect(storage.getStore()).toBe(1);
      retireTransactionStorage(storage as AsyncLocalStorage<unknown>, 5);
      expect(storage.getStore()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(storage.getStore()).toBeUndefined();
    });
  });
});
