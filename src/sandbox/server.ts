// The node HTTP server around the app. close() stops accepting, lets requests
// in flight finish (idle keep-alive sockets are closed at once, busy ones when
// their answer is sent), and gives up on stragglers after a grace period.
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  host: string;
  port: number;
  close(): Promise<void>;
}

export interface FetchApp {
  fetch: (request: Request) => Response | Promise<Response>;
}

export function listen(app: FetchApp, host: string, port: number, graceMs = 5000): Promise<Listening> {
  return new Promise((resolve, reject) => {
    let server: ServerType;
    const onError = (err: Error) => reject(err);
    server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
      server.off('error', onError);
      resolve({ host, port: info.port, close: () => closeServer(server as Server, graceMs) });
    });
    server.once('error', onError);
  });
}

function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
