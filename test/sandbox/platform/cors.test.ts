// Spec: Authentication 2 — a browser request from any origin other than the console is refused;
// server-to-server requests (no Origin) are unaffected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONSOLE_ORIGIN } from '../../../src/sandbox/services.js';
import { startTestSandbox } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { registerProbeRoutes } from './probe-routes.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ extraRoutes: registerProbeRoutes });
});
afterAll(() => sb.close());

const LIST = '/_probe/observe/campaigns';

describe('CORS', () => {
  it('no Origin: unaffected, no CORS headers', async () => {
    const res = await sb.req('GET', LIST, { key: sb.keys.full });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.each(['https://evil.example', 'http://localhost:3000', 'null', `${DEFAULT_CONSOLE_ORIGIN}.evil.example`, DEFAULT_CONSOLE_ORIGIN.replace('https', 'http')])(
    'Origin %s is refused with 403 forbidden and no allow headers, even with a good key',
    async (origin) => {
      const res = await sb.req('GET', LIST, { key: sb.keys.full, headers: { origin } });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('forbidden');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    },
  );

  it('a preflight from another origin is refused', async () => {
    const res = await sb.req('OPTIONS', LIST, {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('the console origin gets a preflight answer and CORS headers on the real request', async () => {
    const pre = await sb.req('OPTIONS', LIST, {
      headers: { origin: DEFAULT_CONSOLE_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(DEFAULT_CONSOLE_ORIGIN);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    expect(pre.headers.get('access-control-allow-methods')).toMatch(/PATCH/);
    const res = await sb.req('GET', LIST, { key: sb.keys.full, headers: { origin: DEFAULT_CONSOLE_ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(DEFAULT_CONSOLE_ORIGIN);
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('the console origin still goes through the key check (CORS is not auth)', async () => {
    const res = await sb.req('GET', LIST, { headers: { origin: DEFAULT_CONSOLE_ORIGIN } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(DEFAULT_CONSOLE_ORIGIN);
  });

  it('the console origin is configurable', async () => {
    const other = await startTestSandbox({ consoleOrigin: 'https://console.test', extraRoutes: registerProbeRoutes });
    try {
      expect((await other.req('GET', LIST, { key: other.keys.full, headers: { origin: 'https://console.test' } })).status).toBe(200);
      expect((await other.req('GET', LIST, { key: other.keys.full, headers: { origin: DEFAULT_CONSOLE_ORIGIN } })).status).toBe(403);
    } finally {
      await other.close();
    }
  });
});
