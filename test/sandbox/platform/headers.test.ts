// http/headers.ts reads a header from the Node request instead of building a
// fetch Headers of the whole request (#16); it must answer what c.req.header
// answers for every spelling a client can send: any case, repeated, padded
// with spaces or tabs, empty, absent. Raw bytes, since fetch normalizes them.
// (An Origin other than the console's is refused by CORS first, so repeats and
// empties are probed on X-Probe.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHeader } from '../../../src/sandbox/http/headers.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { rawExchange } from '../../wire/raw-http.js';

const NAMES = ['authorization', 'origin', 'access-control-request-method', 'x-probe', 'x-absent'];

let sb: TestSandbox;
let port: number;
beforeAll(async () => {
  sb = await startTestSandbox({
    extraRoutes: (app) => {
      app.get('/_probe/headers', (c) => c.json(NAMES.map((name) => ({ name, ours: requestHeader(c, name) ?? null, hono: c.req.header(name) ?? null }))));
    },
  });
  port = Number(new URL(sb.url).port);
});
afterAll(() => sb.close());

const ask = async (lines: string[]) => {
  const answer = await rawExchange(port, [['GET /_probe/headers HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close', ...lines, '', ''].join('\r\n')]);
  expect(answer.status).toBe(200);
  return answer.body as Array<{ name: string; ours: string | null; hono: string | null }>;
};

describe('requestHeader', () => {
  const cases: Array<[string, string[]]> = [
    ['absent', []],
    ['one, any case', ['AUTHORIZATION: Bearer acr_x', 'Origin: https://console.adops.example']],
    ['repeated (joined with ", ")', ['Authorization: Bearer acr_a', 'authorization: Bearer acr_b', 'x-probe: a', 'X-PROBE: b', 'X-Probe: c']],
    ['padded with spaces and tabs', ['Authorization:   Bearer acr_x \t ', 'Origin:\thttps://console.adops.example\t', 'X-Probe: \t a \t']],
    ['empty', ['Authorization:', 'X-Probe: ']],
    ['empty among others', ['Authorization: ', 'Authorization: Bearer acr_x', 'Access-Control-Request-Method: GET']],
  ];
  for (const [what, lines] of cases) {
    it(`answers what c.req.header answers: ${what}`, async () => {
      for (const { name, ours, hono } of await ask(lines)) expect([name, ours]).toEqual([name, hono]);
    });
  }

  it('outside node-server (app.request) is c.req.header itself', async () => {
    const { buildApp } = await import('../../../src/sandbox/app.js');
    const { app } = buildApp(sb.services, {
      extraRoutes: (a) => {
        a.get('/_probe/headers', (c) => c.json({ ours: requestHeader(c, 'authorization') ?? null, hono: c.req.header('authorization') ?? null }));
      },
    });
    const res = await app.request('/_probe/headers', { headers: { Authorization: ' Bearer acr_x ' } });
    const body = (await res.json()) as { ours: string | null; hono: string | null };
    expect(body.ours).toBe(body.hono);
  });
});
