// The mutation start flow against a real loopback server whose first answer
// to POST /mutations is lost after the change was made (or before).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient, closeAllPools } from '../../../src/client/http.js';
import { matchesStarted, startMutation } from '../../../src/flows/mutation-start.js';

let server: Server;
let base: string;
let stored: Array<Record<string, unknown>> = [];
let posts = 0;
let mode: 'lose-after-create' | 'lose-before-create' = 'lose-after-create';
const keys: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/mutations') {
        posts++;
        keys.push(String(req.headers['idempotency-key']));
        const first = posts === 1;
        if (!first || mode === 'lose-after-create') {
          stored.unshift({ id: `mut_${posts}`, state: 'pending', createdAt: Date.now(), ...JSON.parse(body) });
        }
        if (first) return req.socket.destroy();
        res.writeHead(201, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(stored[0]));
      }
      if (req.method === 'GET' && req.url!.startsWith('/mutations')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ data: stored }));
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeAllPools();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  stored = [{ id: 'mut_old', state: 'succeeded', advertiserId: 'acc_1', action: 'pause', target: { type: 'campaign', id: '9' }, createdAt: 0 }];
  posts = 0;
  keys.length = 0;
});

const body = { advertiserId: 'acc_1', action: 'pause', target: { type: 'campaign', id: '9' } };
const client = () => new ApiClient({ baseUrl: base, apiKey: 'acr_t', userAgent: 'adops/test' });

describe('startMutation', () => {
  it('after a lost answer, finds the change it started instead of sending again', async () => {
    mode = 'lose-after-create';
    const notes: string[] = [];
    const r = await startMutation(client(), body, { onNote: (m) => notes.push(m) });
    expect(r.recovered).toBe('found');
    expect(r.mutation.id).toBe('mut_1');
    expect(posts).toBe(1);
    expect(notes.join('\n')).toMatch(/lost.*looking for the change[\s\S]*found it: mutation mut_1/);
  });

  it('sends again with the same Idempotency-Key when the change is not there', async () => {
    mode = 'lose-before-create';
    const r = await startMutation(client(), body);
    expect(r.recovered).toBe('resent');
    expect(posts).toBe(2);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('matches by echoed idempotency key when the service sends one, else by content and time', () => {
    expect(matchesStarted({ idempotencyKey: 'k1', ...body }, body, 'k2', 0)).toBe(false);
    expect(matchesStarted({ idempotencyKey: 'k1' }, body, 'k1', 0)).toBe(true);
    expect(matchesStarted({ ...body, createdAt: 1_000_000 }, body, 'k', 1_000_000)).toBe(true);
    expect(matchesStarted({ ...body, createdAt: 0 }, body, 'k', 1_000_000)).toBe(false);
    expect(matchesStarted({ ...body, action: 'activate', createdAt: 1_000_000 }, body, 'k', 1_000_000)).toBe(false);
  });
});
