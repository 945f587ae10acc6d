// A tiny loopback server for the cases the sandbox cannot produce on demand:
// a 500, an answer that never comes, a mutation stuck running.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Stub {
  url: string;
  /** Lets /paged answer its second page (it waits until then). */
  releasePage2(): void;
  requests: Array<{ method: string; url: string; authorization?: string }>;
  close(): Promise<void>;
}

export async function startStub(): Promise<Stub> {
  const requests: Stub['requests'] = [];
  let release: () => void = () => {};
  const page2 = new Promise<void>((r) => (release = r));
  const rows = (from: number) => Array.from({ length: 50 }, (_, i) => ({ id: String(from + i), name: `row ${from + i}`, extra: { n: from + i } }));
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method!, url: req.url!, ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url!.startsWith('/stuck')) {
      // Page 1 at once; page 2 never comes (the test presses Ctrl-C).
      if (!req.url!.includes('cursor=')) return json(200, { data: rows(0), nextCursor: 'resume-here' });
      return;
    }
    if (req.url!.startsWith('/paged')) {
      // Page 1 at once; page 2 only when the test has seen page 1 on stdout.
      if (!req.url!.includes('cursor=')) return json(200, { data: rows(0), nextCursor: 'p2' });
      return void page2.then(() => json(200, { data: rows(50) }));
    }
    if (req.url!.startsWith('/boom')) return json(500, { error: 'internal', message: 'it broke' });
    if (req.url!.startsWith('/hang')) return; // never answers
    if (req.url!.startsWith('/mutations/mut_running')) return json(200, { id: 'mut_running', state: 'running', novelField: 1 });
    return json(404, { error: 'not_found', message: 'No operation answers this path.' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    releasePage2: () => release(),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
