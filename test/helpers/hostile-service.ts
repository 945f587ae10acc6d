// A hostile service on loopback in front of a test sandbox: it forwards every
// request (with the sandbox's own key, so the CLI may hold any key), may
// rewrite each JSON answer (`rewrite`, given the key the CLI sent), and
// answers the requests a `fault` matches itself. For tests of what adops does
// with what a service hands back (issue #34).
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { TestSandbox } from './sandbox.js';

export interface Fault {
  method: string;
  /** Tried on the path without its query. */
  path: RegExp;
  status: number;
  /** The JSON body, given the key the CLI sent. */
  body: (key: string) => unknown;
}

export interface HostileService {
  url: string;
  /** Answered here instead of by the sandbox; the first that matches wins. */
  faults: Fault[];
  /** Each JSON answer of the sandbox through this, given the key the CLI sent. */
  rewrite?: (body: unknown, key: string) => unknown;
  close(): Promise<void>;
}

/** Start one in front of `sandbox`, forwarding with `sandboxKey`. */
export async function startHostileService(sandbox: TestSandbox, sandboxKey: string): Promise<HostileService> {
  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse, key: string) => {
    const target = new URL(sandbox.url);
    const headers = { ...req.headers, host: target.host, authorization: `Bearer ${sandboxKey}` };
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let out = Buffer.concat(chunks);
        if (service.rewrite && String(answer.headers['content-type'] ?? '').includes('json') && out.length) {
          try {
            out = Buffer.from(JSON.stringify(service.rewrite(JSON.parse(out.toString('utf8')), key)));
          } catch {
            // not JSON after all: as it came
          }
        }
        const h = { ...answer.headers };
        delete h['content-length'];
        delete h['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, { ...h, 'content-length': String(out.length) });
        res.end(out);
      });
    });
    up.on('error', () => res.destroy());
    up.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = String(req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      const path = (req.url ?? '').split('?')[0]!;
      const f = service.faults.find((x) => x.method === req.method && x.path.test(path));
      if (!f) return forward(req, Buffer.concat(chunks), res, key);
      res.writeHead(f.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(f.body(key)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('the hostile service did not listen on a port');
  const service: HostileService = {
    url: `http://127.0.0.1:${address.port}`,
    faults: [],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return service;
}
