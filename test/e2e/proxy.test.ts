// Behind a corporate proxy (#14): the built binary with HTTPS_PROXY/HTTP_PROXY/
// NO_PROXY and NODE_EXTRA_CA_CERTS, against a real CONNECT proxy on loopback
// (test/helpers/corp-network.ts) in front of a TLS terminator whose
// certificate a CA made here signs, the sandbox behind it. The service is
// `https://ads.corp.test` and its storage `https://storage.corp.test`: names
// only the proxy resolves, so a request that skipped the proxy fails.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, tempConfigDir, DEMO } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { makeCa, startConnectProxy, startTlsTerminator, type Closable, type TestCa, type TestProxy } from '../helpers/corp-network.js';
import { png } from '../unit/uploads/media-samples.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { serviceCall } from '../helpers/service-call.js';
import { tempDir } from '../helpers/temp.js';

const PASSWORD = 's3cret-Proxy-pw';
const SERVICE = 'https://ads.corp.test';
const ADVERTISER = 'acc_acme_a_001';

let sb: RunningSandbox;
let ca: TestCa;
let tls: Closable;
let open: TestProxy; // no credentials
let authed: TestProxy; // wants ops:PASSWORD
let cfg: string;

const proxied = (proxy: TestProxy, extra: Record<string, string | undefined> = {}) => ({
  ADOPS_CONFIG_DIR: cfg,
  ADOPS_BASE_URL: SERVICE,
  ADOPS_API_KEY: DEMO.full,
  NODE_EXTRA_CA_CERTS: ca.caFile,
  HTTPS_PROXY: proxy === authed ? `http://ops:${PASSWORD}@127.0.0.1:${proxy.port}` : proxy.url,
  ...extra,
});
/**
 * The same without the CA file, for runs that end before any TLS with the origin (the proxy refuses the CONNECT, or
 * no request is made): the CA changes nothing there. Node reads NODE_EXTRA_CA_CERTS only as a process starts, so a
 * run that names it spawns the binary (~0.4 s of CPU); one without it runs in this process.
 */
const beforeTls = (proxy: TestProxy, extra: Record<string, string | undefined> = {}) =>
  Object.fromEntries(Object.entries(proxied(proxy, extra)).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));
const adops = (args: string[], env: Record<string, string | undefined>, timeoutMs = 40_000) => runAdopsInProcess(args, { env, timeoutMs });
/** The sandbox's API directly (a test's set-up): the answer's body, after checking it is a 2xx. */
const service = <T>(method: string, path: string, body?: unknown) => serviceCall<T>(sb.url, DEMO.full, method, path, body);

beforeAll(async () => {
  ensureBuilt();
  ca = makeCa(['ads.corp.test', 'storage.corp.test', 'localhost']);
  sb = await startSandbox({ host: '127.0.0.1', port: 0, data: ':memory:', quiet: true });
  tls = await startTlsTerminator(ca, sb.port);
  // Both names land on the TLS terminator; plain http to storage.corp.test on the sandbox itself.
  const hosts = { 'ads.corp.test:443': tls.port, 'storage.corp.test:443': tls.port, 'storage.corp.test:80': sb.port, [`localhost:${tls.port}`]: tls.port };
  open = await startConnectProxy(hosts);
  authed = await startConnectProxy(hosts, `ops:${PASSWORD}`);
}, 60_000);

afterAll(async () => {
  await Promise.all([open?.close(), authed?.close(), tls?.close()]);
  await sb?.close();
});

beforeEach(() => {
  cfg = tempConfigDir();
  for (const p of [open, authed]) {
    p.connects.length = 0;
    p.forwarded.length = 0;
    p.answer = undefined;
  }
  // Upload URLs name the storage host, which only the proxy resolves.
  sb.services.publicUrl = () => 'https://storage.corp.test';
});

describe('through a CONNECT proxy with credentials', () => {
  it('reads one page and --all, through the tunnel, the password in no --debug output and the key never in clear', async () => {
    const env = proxied(authed);
    const one = await adops(['observe', 'campaigns', 'list', '--limit', '2', '-o', 'json', '--debug'], env);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toHaveLength(2);
    const all = await adops(['observe', 'campaigns', 'list', '--advertiser', ADVERTISER, '--all', '--limit', '3', '-o', 'json', '--debug'], env);
    expect(all.code, all.stderr).toBe(0);
    const direct = await fetch(`${sb.url}/observe/campaigns?advertiserId=${ADVERTISER}&limit=500`, { headers: { authorization: `Bearer ${DEMO.full}` } });
    expect((JSON.parse(all.stdout) as unknown[]).length).toBe(((await direct.json()) as { data: unknown[] }).data.length);
    expect(authed.connects.every((c) => c === 'ads.corp.test:443')).toBe(true);
    expect(authed.connects.length).toBeGreaterThan(0);
    expect(one.stderr).toContain(`via proxy http://ops:***@127.0.0.1:${authed.port} (from HTTPS_PROXY), CONNECT tunnel`);
    for (const r of [one, all]) {
      expect(r.stdout + r.stderr).not.toContain(PASSWORD);
      expect(r.stdout + r.stderr).not.toContain(Buffer.from(`ops:${PASSWORD}`).toString('base64'));
    }
    // Everything the proxy relayed was TLS to the origin: the key never crossed it in clear.
    expect(authed.seen()).toContain('CONNECT ads.corp.test:443');
    expect(authed.seen()).not.toContain(DEMO.full);
  });

  it('a mutation with --wait, a revision-safe edit and adops api go through it', async () => {
    const env = proxied(authed);
    // The set-up (a campaign to change, the brand to edit) straight from the sandbox: reads through the proxy are the
    // test above's, and each run here names the CA (a process: ~0.45 s of CPU).
    const campaign = (
      await service<{ data: Array<{ id: string; budgetLevel: string }> }>('GET', `/observe/campaigns?advertiserId=${ADVERTISER}&limit=500`)
    ).data.find((c) => c.budgetLevel === 'campaign')!.id;
    const mutation = await adops(
      ['mutations', 'budget', ADVERTISER, '--campaign', campaign, '--amount', '81', '--type', 'daily', '--wait', '--interval', '0.2', '-o', 'json', '--debug'],
      env,
    );
    expect(mutation.code, mutation.stderr).toBe(0);
    expect(JSON.parse(mutation.stdout)).toMatchObject({ state: 'succeeded' });
    await service('POST', '/context/brands', { slug: 'corp-proxy', name: 'Corp' });
    const edit = await adops(['brands', 'update', 'corp-proxy', '--description', 'Through the proxy', '--json', '--debug'], env);
    expect(edit.code, edit.stderr).toBe(0);
    expect(JSON.parse(edit.stdout)).toMatchObject({ description: 'Through the proxy' });
    const api = await adops(['api', 'GET', '/context/brands/corp-proxy'], env);
    expect(api.code, api.stderr).toBe(0);
    expect(JSON.parse(api.stdout)).toMatchObject({ description: 'Through the proxy' });
    for (const r of [mutation, edit, api]) expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    expect(authed.seen()).not.toContain(DEMO.full);
  });

  it('assets upload: the API calls and the byte PUT to the storage host each through a tunnel', async () => {
    const dir = tempDir('adops-proxy-up-');
    writeFileSync(join(dir, 'a.png'), png());
    const r = await adops(['assets', 'upload', join(dir, 'a.png'), '-o', 'json', '--debug'], proxied(authed));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ filename: 'a.png', state: 'ready' }]);
    expect(authed.connects).toContain('ads.corp.test:443');
    expect(authed.connects).toContain('storage.corp.test:443');
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    expect(authed.seen()).not.toContain(DEMO.full);
  });

  it('the upload PUT to an http storage URL is forwarded plainly (the key never goes there)', async () => {
    sb.services.publicUrl = () => 'http://storage.corp.test';
    const dir = tempDir('adops-proxy-up-');
    writeFileSync(join(dir, 'b.png'), png());
    const r = await adops(
      ['assets', 'upload', join(dir, 'b.png'), '-o', 'json'],
      proxied(authed, { HTTP_PROXY: `http://ops:${PASSWORD}@127.0.0.1:${authed.port}` }),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(authed.forwarded.some((u) => u.startsWith('http://storage.corp.test/_storage/'))).toBe(true);
    expect(authed.seen()).not.toContain(DEMO.full);
  });

  it('wrong proxy credentials: exit 3 naming the proxy, one CONNECT, never retried, the password not shown', async () => {
    const env = beforeTls(authed, { HTTPS_PROXY: `http://ops:wrong-${PASSWORD}@127.0.0.1:${authed.port}` });
    const r = await adops(['observe', 'campaigns', 'list', '--limit', '1', '--debug'], env);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`proxy_auth_required (407): the proxy http://ops:***@127.0.0.1:${authed.port} (from HTTPS_PROXY) refused the request`);
    expect(r.stderr).not.toContain(PASSWORD);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(authed.connects).toEqual(['ads.corp.test:443']);
  });

  it('no credentials at all: 407, exit 3 with --output json too', async () => {
    const r = await adops(['observe', 'campaigns', 'list', '--limit', '1', '-o', 'json'], beforeTls(authed, { HTTPS_PROXY: authed.url }));
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'proxy_auth_required', status: 407, exitCode: 3 });
  });
});

describe('through a CONNECT proxy without credentials', () => {
  it('an https:// proxy: TLS to the proxy (its certificate from the same CA), then TLS to the origin inside', async () => {
    const secure = await startConnectProxy({ 'ads.corp.test:443': tls.port }, undefined, ca);
    try {
      const r = await adops(['observe', 'campaigns', 'list', '--limit', '1', '-o', 'json'], proxied(open, { HTTPS_PROXY: secure.url }));
      expect(r.code, r.stderr).toBe(0);
      expect(secure.connects).toEqual(['ads.corp.test:443']);
      expect(secure.seen()).not.toContain(DEMO.full);
    } finally {
      await secure.close();
    }
  });

  it("the CONNECT request carries adops' User-Agent (issue 25), for the API and for the upload PUT", async () => {
    const r = await adops(['observe', 'campaigns', 'list', '--limit', '1', '-o', 'json'], proxied(open));
    expect(r.code, r.stderr).toBe(0);
    const dir = tempDir('adops-proxy-ua-');
    writeFileSync(join(dir, 'ua.png'), png());
    const up = await adops(['assets', 'upload', join(dir, 'ua.png'), '-o', 'json'], proxied(open));
    expect(up.code, up.stderr).toBe(0);
    expect(open.connects).toContain('storage.corp.test:443');
    // Each CONNECT's head as the proxy recorded it (relayed TLS bytes sit between them, not on lines of their own).
    const connectHeads = [...open.seen().matchAll(/CONNECT (\S+)\n(\{[^\n]*\})\n/g)].map((m) => ({ to: m[1], head: m[2]! }));
    expect(connectHeads.map((c) => c.to)).toEqual(expect.arrayContaining(['ads.corp.test:443', 'storage.corp.test:443']));
    for (const { head } of connectHeads) expect(JSON.parse(head)).toMatchObject({ 'user-agent': expect.stringMatching(/^adops\/\d/) });
  });

  it('a 0 timeout is no bound, never a refusal: --connect-timeout 0 and --retry-budget 0 still tunnel and send (#34)', async () => {
    const r = await adops(['observe', 'campaigns', 'list', '--limit', '2', '-o', 'json', '--connect-timeout', '0', '--retry-budget', '0'], proxied(open));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    expect(open.connects).toContain('ads.corp.test:443');
  });

  it('lowercase https_proxy wins over HTTPS_PROXY', async () => {
    // In this process without the CA: the run tunnels through the lowercase one's proxy (its CONNECT recorded) and then
    // refuses the origin's certificate; through HTTPS_PROXY (nothing listens on port 9) it could not have connected.
    const r = await adops(
      ['observe', 'campaigns', 'list', '--limit', '1', '-o', 'json'],
      beforeTls(open, { https_proxy: open.url, HTTPS_PROXY: 'http://127.0.0.1:9' }),
    );
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain('the TLS certificate of ads.corp.test was refused');
    expect(open.connects).toEqual(['ads.corp.test:443']);
  });

  it('a proxy answering 502 to CONNECT is retried like a connection failure, then exit 6 naming the proxy', async () => {
    open.answer = 502;
    const r = await adops(['observe', 'campaigns', 'list', '--limit', '1', '--retries', '2'], beforeTls(open));
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(`the proxy ${open.url} answered 502 to CONNECT ads.corp.test:443`);
    expect(open.connects).toHaveLength(3);
  });

  it('without NODE_EXTRA_CA_CERTS the certificate is refused: exit 6 at once, the host named, how to trust a CA', async () => {
    const r = await adops(['observe', 'campaigns', 'list', '--limit', '1'], beforeTls(open));
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('tls_certificate_refused: the TLS certificate of ads.corp.test was refused');
    expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS=/path/to/ca.pem');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(open.connects).toEqual(['ads.corp.test:443']);
    // The same without any proxy: the host it connected to is named.
    const direct = await adops(['observe', 'campaigns', 'list', '--limit', '1'], {
      ADOPS_CONFIG_DIR: cfg,
      ADOPS_API_KEY: DEMO.full,
      ADOPS_BASE_URL: `https://localhost:${tls.port}`,
    });
    expect(direct.code).toBe(6);
    expect(direct.stderr).toContain(`tls_certificate_refused: the TLS certificate of localhost:${tls.port} was refused`);
    const trusted = await adops(['observe', 'campaigns', 'list', '--limit', '1'], {
      ADOPS_CONFIG_DIR: cfg,
      ADOPS_API_KEY: DEMO.full,
      ADOPS_BASE_URL: `https://localhost:${tls.port}`,
      NODE_EXTRA_CA_CERTS: ca.caFile,
    });
    expect(trusted.code, trusted.stderr).toBe(0);
  });

  it('an unusable proxy variable: exit 2 before any request, the password not shown', async () => {
    const r = await adops(['observe', 'campaigns', 'list', '--limit', '1'], beforeTls(open, { HTTPS_PROXY: `socks5://ops:${PASSWORD}@127.0.0.1:1080` }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad_proxy: HTTPS_PROXY is socks5://ops:***@127.0.0.1:1080: adops supports http:// and https:// proxies only');
    expect(r.stderr).not.toContain(PASSWORD);
  });

  it('NO_PROXY bypasses it: host, domain suffix, port and * forms', async () => {
    const base = `https://localhost:${tls.port}`;
    // One form with the CA (a process): the direct run reads. The other forms in this process without it: the run
    // goes straight to localhost, whose certificate it then refuses (exit 6 naming localhost, not the proxy); the
    // bypass is the same decision (client/proxy.ts decideProxy) and the proxy sees no CONNECT either way.
    const trusted = await adops(['observe', 'campaigns', 'list', '--limit', '1', '--debug'], proxied(open, { ADOPS_BASE_URL: base, NO_PROXY: 'localhost' }));
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stderr).toContain('direct, not via the proxy: NO_PROXY entry');
    for (const noProxy of ['.localhost,other.test', `example.test localhost:${tls.port}`, '*']) {
      const r = await adops(['observe', 'campaigns', 'list', '--limit', '1', '--debug'], beforeTls(open, { ADOPS_BASE_URL: base, NO_PROXY: noProxy }));
      expect(r.code, `${noProxy}: ${r.stderr}`).toBe(6);
      expect(r.stderr).toContain(`tls_certificate_refused: the TLS certificate of localhost:${tls.port} was refused`);
      expect(r.stderr).toContain('direct, not via the proxy: NO_PROXY entry');
    }
    expect(open.connects).toEqual([]);
    // A NO_PROXY entry for another port does not match: through the proxy (in this process, without the CA: the CONNECT
    // is recorded, then the certificate refused).
    const other = await adops(['observe', 'campaigns', 'list', '--limit', '1'], beforeTls(open, { ADOPS_BASE_URL: base, no_proxy: 'localhost:1' }));
    expect(other.code, other.stderr).toBe(6);
    expect(other.stderr).toContain(`the TLS certificate of localhost:${tls.port} was refused`);
    expect(open.connects).toEqual([`localhost:${tls.port}`]);
  });

  it('doctor names the proxy and says it tunnels to the origin; config list shows it masked', async () => {
    const env = proxied(authed);
    const doctor = await adops(['doctor', '-o', 'table'], env);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toContain(`✓ proxy: http://ops:***@127.0.0.1:${authed.port} (from HTTPS_PROXY) tunnels to ads.corp.test:443`);
    const list = await adops(['config', 'list', '-o', 'json'], beforeTls(authed));
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toContainEqual({ key: 'proxy', value: `http://ops:***@127.0.0.1:${authed.port}`, source: 'HTTPS_PROXY' });
    for (const r of [doctor, list]) expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    // What doctor says of the proxy needs no TLS with the origin (its own TLS check fails without the CA: not judged here).
    const bypass = await adops(['doctor', '-o', 'table'], beforeTls(authed, { NO_PROXY: 'ads.corp.test' }));
    expect(bypass.stdout).toContain('proxy: not used for ads.corp.test: NO_PROXY entry "ads.corp.test" matches ads.corp.test');
    const refused = await adops(['doctor', '-o', 'table'], beforeTls(authed, { HTTPS_PROXY: authed.url }));
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain(`✗ proxy: the proxy ${authed.url} (from HTTPS_PROXY) refused the request: 407`);
  });
});
