/**
 * Test support (imported by tests only): a real socket.io server standing in for the core's realtime, the
 * way the SDK's own realtime tests do it. The page's company socket (the SDK's `connectCompanySocket`) connects
 * to it, so the events a test emits reach the cache entries exactly as the server's would.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectCompanySocket, disconnectCompanySocket } from '@balcao/plugin-sdk/ui';
import { Server } from 'socket.io';

/** The stand-in server of a test: `emit` an event to the company's namespace; `close` it after the test. */
export interface TestSocketServer {
  emit(event: string, payload: unknown): void;
  close(): Promise<void>;
}

/** Starts the server, connects the SDK's company socket of `companyId` to it and resolves once connected. */
export async function serveSocket(companyId = 1): Promise<TestSocketServer> {
  const http = createServer();
  const io = new Server(http, { cors: { origin: true } });
  const namespace = io.of(`/${companyId}`);
  const connected = new Promise<void>((resolve) => namespace.on('connection', () => resolve()));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  await connectCompanySocket({
    companyId,
    userId: 1,
    origin,
    readToken: () => 'test-token',
    renewToken: async () => false,
    onSessionRefused: () => {},
  });
  await connected;
  return {
    emit: (event, payload) => {
      namespace.emit(event, payload);
    },
    close: async () => {
      disconnectCompanySocket();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
