// A loopback stand-in for the storage host between adops and the sandbox's
// storage endpoint: it records each PUT's headers (to prove the API key never
// goes there) and can misbehave on purpose: stall after some bytes (so a test
// can kill adops mid-PUT) or lose the answer of a complete PUT once.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyMode =
  | 'pass'
  | { stallAfter: number }
  | 'lose-answer-once'
  /** Forward `holdAfter` bytes, call `held()`, and go on once the promise it returns resolves. */
  | { holdAfter: number; held: () => Promise<void> };

export interface UploadProxy {
  url: string;
  mode: ProxyMode;
  puts: Array<{ headers: IncomingHttpHeaders; status?: number }>;
  /** Bytes of the current PUT forwarded so far. */
  forwarded: number;
  close(): Promise<void>;
}

export async function startUploadProxy(upstream: string): Promise<UploadProxy> {
  const state: UploadProxy = { url: '', mode: 'pass', puts: [], forwarded: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const record: UploadProxy['puts'][number] = { headers: { ...req.headers } };
    state.puts.push(record);
    state.forwarded = 0;
    const mode = state.mode;
    const up = request(upstream + req.url, { method: req.method, headers: req.headers }, (ur) => {
      record.status = ur.statusCode;
      if (mode === 'lose-answer-once') {
        state.mode = 'pass';
        ur.resume();
        ur.on('end', () => req.socket.destroy()); // the storage kept the bytes; adops never hears so
        return;
      }
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
    });
    up.on('error', () => res.destroy());
    let holding = false;
    req.on('data', (chunk: Buffer) => {
      if (typeof mode === 'object' && 'holdAfter' in mode && !holding && state.forwarded + chunk.length > mode.holdAfter) {
        holding = true;
        req.pause();
        void mode.held().then(() => {
          state.forwarded += chunk.length;
          up.write(chunk);
          req.resume();
        });
        return;
      }
      if (typeof mode === 'object' && 'stallAfter' in mode && state.forwarded + chunk.length > mode.stallAfter) {
        req.pause(); // stop reading: adops's PUT stalls, the test kills it
        return;
      }
      state.forwarded += chunk.length;
      if (!up.write(chunk)) {
        req.pause();
        up.once('drain', () => req.resume());
      }
    });
    req.on('end', () => up.end());
    req.on('close', () => {
      if (!req.complete) up.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}
