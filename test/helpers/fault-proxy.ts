// A tiny loopback HTTP proxy in front of a sandbox that misbehaves on cue,
// per request: reset the connection before forwarding, stall (never answer),
// forward and then cut the connection instead of answering (the service did
// the work, the answer is lost), or cut halfway through the answer's body.
//
//   const proxy = await startFaultProxy(sandbox.url, (req, n) => (n === 2 ? 'reset' : 'pass'));
//   ... ADOPS_BASE_URL=proxy.url ...
//   proxy.seen  // [{ method, url, fault }]
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'pass' | 'reset' | 'stall' | 'cut-after-forward' | 'cut-mid-body';
/** Decides the fault of the n-th request (1-based) the proxy receives since the plan was set. */
export type FaultPlan = (req: IncomingMessage, n: number) => Fault;

export interface FaultProxy {
  url: string;
  /** Each request received; `auth`: it carried an Authorization header. */
  seen: Array<{ method: string; url: string; fault: Fault; auth: boolean }>;
  setPlan(plan: FaultPlan): void;
  close(): Promise<void>;
}

export async function startFaultProxy(upstream: string, plan: FaultPlan = () => 'pass'): Promise<FaultProxy> {
  const target = new URL(upstream);
  const seen: FaultProxy['seen'] = [];
  let current = plan;
  let count = 0;
  const server = createServer((req, res) => {
    const fault = current(req, ++count);
    seen.push({ method: req.method!, url: req.url!, fault, auth: req.headers.authorization !== undefined });
    if (fault === 'reset') return req.socket.resetAndDestroy();
    if (fault === 'stall') return req.resume();
    forward(target, req, res, fault);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    setPlan: (p) => {
      current = p;
      count = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

function forward(target: URL, req: IncomingMessage, res: ServerResponse, fault: Fault): void {
  const up = request(
    { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent: false },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        if (fault === 'cut-after-forward') return req.socket.destroy();
        const headers = { ...answer.headers };
        delete headers['transfer-encoding'];
        headers['content-length'] = String(body.length);
        res.writeHead(answer.statusCode ?? 502, headers);
        if (fault === 'cut-mid-body') {
          res.write(body.subarray(0, body.length >> 1));
          setTimeout(() => req.socket.destroy(), 10);
          return;
        }
        res.end(body);
      });
    },
  );
  up.on('error', () => req.socket.destroy());
  req.pipe(up);
}
