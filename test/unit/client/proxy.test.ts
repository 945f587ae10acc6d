// Which proxy a request takes (#14): the variables and NO_PROXY forms, the
// masked form every message uses, and the node transport's plain forwarding
// (http origins) through a real loopback proxy, its 407 and its 502.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeTransport } from '../../../src/client/node-transport.js';
import { decideProxy, noProxyMatch, parseProxy, ProxyRefusedError, ProxySettingError, proxyFor, showProxy } from '../../../src/client/proxy.js';
import { redactText } from '../../../src/client/redact.js';
import { startConnectProxy, type TestProxy } from '../../helpers/corp-network.js';

describe('decideProxy', () => {
  it('https origins use https_proxy, then HTTPS_PROXY, then the http ones; lowercase wins', () => {
    expect(proxyFor('https://a.test', { HTTPS_PROXY: 'http://up:1', https_proxy: 'http://low:2' })?.origin).toBe('http://low:2');
    expect(proxyFor('https://a.test', { HTTPS_PROXY: 'http://up:1' })?.variable).toBe('HTTPS_PROXY');
    expect(proxyFor('https://a.test', { HTTP_PROXY: 'http://h:3', http_proxy: 'http://hl:4' })?.origin).toBe('http://hl:4');
    expect(proxyFor('http://a.test', { HTTPS_PROXY: 'http://up:1' })).toBeUndefined();
    expect(proxyFor('http://a.test', { HTTP_PROXY: 'http://h:3' })?.variable).toBe('HTTP_PROXY');
    // Set to '' (lowercase) means no proxy, even with the uppercase set.
    expect(decideProxy('https://a.test', { https_proxy: '', HTTPS_PROXY: 'http://up:1' })).toEqual({ kind: 'none' });
    expect(decideProxy('https://a.test', {})).toEqual({ kind: 'none' });
  });

  it('a proxy without a scheme is http://, default ports 80/443', () => {
    expect(parseProxy('proxy.corp:3128', 'HTTPS_PROXY')).toMatchObject({ origin: 'http://proxy.corp:3128', port: 3128, protocol: 'http:' });
    expect(parseProxy('https://proxy.corp', 'HTTPS_PROXY')).toMatchObject({ port: 443, protocol: 'https:' });
    expect(parseProxy('http://proxy.corp', 'HTTPS_PROXY')).toMatchObject({ port: 80 });
  });

  it('credentials become Proxy-Authorization and are only ever shown masked', () => {
    const route = parseProxy('http://ops:p%40ss-word@proxy.corp:3128', 'HTTPS_PROXY');
    expect(route.authorization).toBe(`Basic ${Buffer.from('ops:p@ss-word').toString('base64')}`);
    expect(route.shown).toBe('http://ops:***@proxy.corp:3128');
    expect(route.origin).toBe('http://proxy.corp:3128');
    expect(showProxy('ops:pw-x@proxy.corp:3128')).toBe('http://ops:***@proxy.corp:3128');
    // Remembered: masked in any text that later echoes them.
    expect(redactText('echo p@ss-word and ' + route.authorization)).not.toMatch(/p@ss-word|b3Bz/);
  });

  it('an unusable proxy variable is a setting error naming it, without its password', () => {
    expect(() => proxyFor('https://a.test', { HTTPS_PROXY: 'socks5://u:hunter22@s:1080' })).toThrow(ProxySettingError);
    expect(() => proxyFor('https://a.test', { HTTPS_PROXY: 'socks5://u:hunter22@s:1080' })).toThrow(
      'HTTPS_PROXY is socks5://u:***@s:1080: adops supports http:// and https:// proxies only',
    );
    expect(() => proxyFor('https://a.test', { HTTPS_PROXY: 'http://u:hunter22@[bad' })).toThrow(/not a valid proxy URL: http:\/\/u:\*\*\*@\[bad/);
  });

  it('NO_PROXY: host, domain suffix (with or without . or *.), host:port, *, IPv6; lowercase wins', () => {
    const env = (v: string) => ({ NO_PROXY: v });
    expect(noProxyMatch(env('ads.corp.test'), 'ads.corp.test', 443)).toBe('ads.corp.test');
    expect(noProxyMatch(env('corp.test'), 'ads.corp.test', 443)).toBe('corp.test');
    expect(noProxyMatch(env('.corp.test'), 'ads.corp.test', 443)).toBe('.corp.test');
    expect(noProxyMatch(env('*.corp.test'), 'corp.test', 443)).toBe('*.corp.test');
    expect(noProxyMatch(env('corp.test'), 'notcorp.test', 443)).toBeUndefined();
    expect(noProxyMatch(env('a.test, ads.corp.test:8443'), 'ads.corp.test', 8443)).toBe('ads.corp.test:8443');
    expect(noProxyMatch(env('ads.corp.test:8443'), 'ads.corp.test', 443)).toBeUndefined();
    expect(noProxyMatch(env('*'), 'anything.test', 1)).toBe('*');
    expect(noProxyMatch(env('[::1]:8080'), '::1', 8080)).toBe('[::1]:8080');
    expect(noProxyMatch(env('ADS.Corp.Test'), 'ads.corp.test', 443)).toBe('ADS.Corp.Test');
    expect(noProxyMatch({ no_proxy: '', NO_PROXY: 'ads.corp.test' }, 'ads.corp.test', 443)).toBeUndefined();
    expect(decideProxy('https://ads.corp.test', { HTTPS_PROXY: 'http://p:1', no_proxy: 'corp.test' })).toEqual({
      kind: 'bypass',
      reason: 'NO_PROXY entry "corp.test" matches ads.corp.test',
    });
    // The default port counts: :443 for https.
    expect(proxyFor('https://ads.corp.test', { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'ads.corp.test:443' })).toBeUndefined();
  });

  it('plain http to loopback never goes through a proxy (the key would cross it in clear); https to localhost follows the variables', () => {
    for (const origin of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010']) {
      expect(decideProxy(origin, { HTTP_PROXY: 'http://p:1' }).kind).toBe('bypass');
    }
    expect(proxyFor('https://localhost:8443', { HTTPS_PROXY: 'http://p:1' })?.origin).toBe('http://p:1');
  });
});

describe('node transport: plain forwarding to an http origin', () => {
  let origin: Server;
  let proxy: TestProxy;
  let originPort: number;
  const seen: Array<{ url: string; headers: Record<string, unknown> }> = [];

  beforeAll(async () => {
    origin = createServer((req, res) => {
      seen.push({ url: String(req.url), headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    originPort = (origin.address() as AddressInfo).port;
    proxy = await startConnectProxy({ 'plain.corp.test:80': originPort }, 'ops:pw-1234');
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise((r) => origin.close(r));
  });

  const send = async (route: ReturnType<typeof parseProxy>) => {
    const t = nodeTransport();
    try {
      const res = await t.send({ method: 'GET', origin: 'http://plain.corp.test', path: '/x?y=1', headers: { accept: 'application/json' }, proxy: route });
      let text = '';
      for await (const c of res.body) text += Buffer.from(c).toString();
      return { status: res.status, text };
    } finally {
      await t.close();
    }
  };

  it('sends the absolute URL with Proxy-Authorization to the proxy, which forwards it without that header', async () => {
    const r = await send(parseProxy(`http://ops:pw-1234@127.0.0.1:${proxy.port}`, 'HTTP_PROXY'));
    expect(r).toEqual({ status: 200, text: '{"ok":true}' });
    expect(proxy.forwarded).toContain('http://plain.corp.test/x?y=1');
    expect(seen.at(-1)).toMatchObject({ url: '/x?y=1', headers: { host: 'plain.corp.test' } });
    expect(seen.at(-1)!.headers['proxy-authorization']).toBeUndefined();
  });

  it("the forwarding proxy's 407 is a ProxyRefusedError naming it masked, not the origin's answer", async () => {
    const err = await send(parseProxy(`http://ops:wrong-pw@127.0.0.1:${proxy.port}`, 'HTTP_PROXY')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProxyRefusedError);
    expect((err as Error).message).toBe(
      `the proxy http://ops:***@127.0.0.1:${proxy.port} (from HTTP_PROXY) refused the request: 407 Proxy Authentication Required`,
    );
  });
});
