import { dropStaleDatabases } from '@balcao/plugin-sdk/testing';

/** Drops throwaway databases that crashed runs left behind (older than an hour). */
export default async function setup(): Promise<void> {
  await dropStaleDatabases(3_600);
}
