// The racing writer of `adops demo`'s revision-safe edit, made deterministic:
// a loopback relay between one adops child and the in-process sandbox that
// forwards every request as it is, except that before it forwards the first
// PATCH of one path it lets another writer change that row through the API.
// The child has read the row by then (its read went through the relay), so its
// write meets 409 revision_mismatch exactly as it would with a real concurrent
// writer.
//
// It lives with the sandbox, not the CLI: it is a fault proxy in front of the
// service (a server, and its forwarding to the sandbox), the service's side of
// the wire. The CLI side of the demo (the child adops, the other writer) sends
// through the client's one transport like every command (issue 25). Loaded
// only by the demo, through src/sandbox/index.ts.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RaceRelay {
  url: string;
  /** Whether the other writer has run (the child's PATCH came through). */
  raced(): boolean;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function forward(base: string, method: string, path: string, headers: IncomingHttpHeaders, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers: { ...headers, host: new URL(base).host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Start the relay to `target`; `otherWriter` runs once, before the first PATCH of `path` is forwarded. */
export function startRaceRelay(target: string, path: string, otherWriter: () => Promise<void>): Promise<RaceRelay> {
  let pending: (() => Promise<void>) | undefined = otherWriter;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          const url = req.url ?? '/';
          if (req.method === 'PATCH' && url.split('?')[0] === path && pending) {
            const writer = pending;
            pending = undefined;
            await writer();
          }
          const headers = { ...req.headers };
          delete headers.connection;
          const answer = await forward(target, req.method ?? 'GET', url, headers, chunks.length ? Buffer.concat(chunks) : undefined);
          const out = { ...answer.headers };
          delete out.connection;
          delete out['transfer-encoding'];
          out['content-length'] = String(answer.body.length);
          res.writeHead(answer.status, out);
          res.end(answer.body);
        } catch (error) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: 'demo_relay', message: error instanceof Error ? error.message : String(error) }));
        }
      })();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        raced: () => pending === undefined,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
