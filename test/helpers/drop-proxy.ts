// A loopback HTTP proxy for fault tests: it forwards to a target and, for the
// requests a rule matches, either resets the connection BEFORE forwarding (the
// request never reaches the server; the client sees a reset and cannot tell)
// or forwards and then drops the answer (the change is made; the client sees
// the connection close). It records every request it saw, so a test can also
// prove that nothing was sent at all.
//
//   const proxy = await startDropProxy(sb.url);
//   proxy.rule({ method: 'POST', path: '/mutations', action: 'drop-answer', times: 1 });
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { closeAllPools } from '../../src/client/http.js';
import type { TestSandbox, TestSandboxOptions } from './sandbox.js';

export interface ProxyRule {
  method?: string;
  /** Matched against the path without the query. */
  path?: string;
  action: 'reset-before' | 'drop-answer' | 'delay-answer';
  /** How many matching requests it applies to (default: every one). */
  times?: number;
  /** For delay-answer: how long the answer is held before it is passed on. */
  delayMs?: number;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the proxy did with it. */
  fate: 'forwarded' | 'reset-before' | 'drop-answer' | 'delay-answer';
}

export interface DropProxy {
  url: string;
  seen: SeenRequest[];
  rule(r: ProxyRule): void;
  clearRules(): void;
  close(): Promise<void>;
}

export async function startDropProxy(target: string): Promise<DropProxy> {
  const to = new URL(target);
  const rules: Array<ProxyRule & { used: number }> = [];
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = (req.url ?? '/').split('?')[0]!;
      const rule = rules.find((r) => (!r.method || r.method === req.method) && (!r.path || r.path === path) && r.used < (r.times ?? Infinity));
      if (rule) rule.used++;
      const fate = rule?.action ?? 'forwarded';
      seen.push({ method: req.method ?? '', path, headers: req.headers, body: body.toString('utf8'), fate });
      if (fate === 'reset-before') return req.socket.destroy();
      const upstream = httpRequest(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            if (fate === 'drop-answer') return req.socket.destroy();
            const send = () => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(Buffer.concat(parts));
            };
            if (fate === 'delay-answer') setTimeout(send, rule?.delayMs ?? 500);
            else send();
          });
        },
      );
      upstream.on('error', () => req.socket.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    rule: (r) => rules.push({ ...r, used: 0 }),
    clearRules: () => void rules.splice(0),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export type ServerMutation = { id: string; action: string; target: { type: string; id: string }; changes: Record<string, any>; state: string };

/** Every mutation the server holds (all pages, with a key that may list): what "exactly once" is counted on. */
export async function allMutations(sb: TestSandbox, key: string): Promise<ServerMutation[]> {
  const out: ServerMutation[] = [];
  let cursor: string | undefined;
  do {
    const res = await sb.req('GET', '/mutations', { key, query: { limit: 500, cursor } });
    out.push(...res.body.data);
    cursor = res.body.nextCursor;
  } while (cursor);
  return out;
}

/** For a test file: a sandbox of this world behind a proxy, started once; rules and records cleared before each test. */
export function sandboxBehindProxy(world: NonNullable<TestSandboxOptions['world']>): { sb: TestSandbox; proxy: DropProxy } {
  const handle = {} as { sb: TestSandbox; proxy: DropProxy };
  beforeAll(async () => {
    // Imported here: unit tests that only need loopbackServer should not load the sandbox.
    const { startTestSandbox } = await import('./sandbox.js');
    handle.sb = await startTestSandbox({ world });
    handle.proxy = await startDropProxy(handle.sb.url);
  }, 60_000);
  afterAll(async () => {
    await handle.proxy?.close();
    await handle.sb?.close();
  });
  beforeEach(() => {
    handle.proxy?.clearRules();
    handle.proxy?.seen.splice(0);
  });
  return handle;
}

/** Campaign rows of one advertiser, as the stored read answers them. */
export async function campaignsOf(sb: TestSandbox, key: string, advertiserId: string): Promise<Array<{ id: string; budgetLevel: string }>> {
  return (await sb.req('GET', '/observe/campaigns', { key, query: { advertiserId, limit: 100 } })).body.data;
}

/** For a unit test file: a loopback server (handler gets the whole body as text) for the file's duration. */
export function loopbackServer(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): { url: string } {
  const handle = { url: '' };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, res, body));
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    handle.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await closeAllPools();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return handle;
}
