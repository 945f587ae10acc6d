// Mutations through the BUILT binary against a real sandbox (in-process, demo
// world plus a mutation:write-only key), with a loopback proxy in between that
// resets or drops on purpose. Every "exactly once" is counted on the server
// with GET /mutations and the full key.
import { beforeAll, describe, expect, it } from 'vitest';
import { demoWorldInput } from '../../src/sandbox/fixtures/demo.js';
import { spawn } from 'node:child_process';
import { baseEnv, BIN, DEMO, ensureBuilt, ROOT, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { allMutations, campaignsOf, sandboxBehindProxy, type DropProxy } from '../helpers/drop-proxy.js';
import { withKey, type TestSandbox } from '../helpers/sandbox.js';
import { virtualClock } from '../helpers/virtual-clock.js';

const ACC = 'acc_acme_a_001';
const WRITE_ONLY = 'acr_test_acme_mutation_write_0001';
let sb: TestSandbox;
let proxy: DropProxy;
let campaigns: string[] = [];
const cfg = tempConfigDir();

// A run that does not --wait sleeps on a virtual clock: its resends' back-off (0.5 + 1 + 2 s when no send gets
// through, ~3.5 s of real waiting in each such test) costs nothing, and what is judged (what reached the server,
// the exit code, the message) does not depend on it; the lost-answer look-up's window starts at the clock's
// start, the real time. A --wait polls the sandbox, which moves on the real clock, so it keeps the real one.
const run = (args: string[], opts: { key?: string; url?: string; timeoutMs?: number } = {}) =>
  runAdopsInProcess(args, {
    env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: opts.url ?? proxy.url, ADOPS_API_KEY: opts.key ?? DEMO.full },
    timeoutMs: opts.timeoutMs ?? 30_000,
    ...(args.includes('--wait') ? {} : { clock: virtualClock(Date.now()) }),
  });

/** A provider's faults in the sandbox (PUT /_sandbox/faults): refusals and latency; 0 and 0 put it right again. */
const faults = (provider: string, errorRate: number, latencyMs: number) =>
  sb.req('PUT', `/_sandbox/faults/${provider}`, { body: { errorRate, latencyMs, rateLimitPerMinute: null } });

const budgetsOf = async (campaign: string, amount: number) =>
  (await allMutations(sb, DEMO.full)).filter((m) => m.action === 'set_budget' && m.target.id === campaign && m.changes.budget?.amount === amount);

const t = sandboxBehindProxy(
  withKey(demoWorldInput(), { label: 'acme-mutation-write', key: WRITE_ONLY, member: 'mem_acme_owner', permissions: ['observe:read', 'mutation:write'] }),
);

beforeAll(async () => {
  ensureBuilt();
  ({ sb, proxy } = t);
  campaigns = (await campaignsOf(sb, DEMO.full, ACC)).filter((c) => c.budgetLevel === 'campaign').map((c) => c.id);
}, 60_000);

describe('named actions', () => {
  it('a mutation that fails at the provider exits 9 with --wait', async () => {
    const r = await run(['mutations', 'pause', ACC, '--campaign', 'no-such-campaign', '--wait', '--interval', '0.1', '--output', 'json']);
    expect(r.code, r.stderr).toBe(9);
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'failed', error: { error: 'not_found' } });
  });

  it('a provider that refuses the change (sandbox fault errorRate 1): exit 9 naming provider_error; 403 missing_write_access is exit 3', async () => {
    const set = (errorRate: number) => faults('provider_b', errorRate, 0);
    expect((await set(1)).status).toBe(200);
    try {
      const campaign = (await campaignsOf(sb, DEMO.full, 'acc_acme_b_001'))[0]!.id;
      const r = await run(['mutations', 'pause', 'acc_acme_b_001', '--campaign', campaign, '--wait', '--interval', '0.1', '--output', 'json']);
      expect(r.code, r.stderr).toBe(9);
      expect(JSON.parse(r.stdout)).toMatchObject({ state: 'failed', error: { error: 'provider_error', provider: 'provider_b' } });
      expect(r.stderr).toMatch(/failed: provider_error/);
    } finally {
      await set(0);
    }
    const readonly = await run(['mutations', 'pause', 'acc_acme_c_readonly', '--campaign', '1']);
    expect(readonly.code).toBe(3);
    expect(readonly.stderr).toMatch(/missing_write_access/);
  });

  it('checks fields before sending: exit 2, nothing sent', async () => {
    for (const args of [
      ['mutations', 'bid', ACC, '--ad-group', '1'],
      ['mutations', 'budget', ACC, '--campaign', '1', '--amount', '0'],
      ['mutations', 'budget', ACC, '--campaign', '1'],
      ['mutations', 'pause', 'not-an-advertiser', '--campaign', '1'],
      ['mutations', 'pause', ACC, '--campaign', '1', '--ad-group', '2'],
      ['mutations', 'rename', ACC, '--campaign', '1'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/nothing was sent|exactly one target|amount greater than 0/);
    }
    expect(proxy.seen).toHaveLength(0);
  });

  it('--dry-run prints the request without the API key and sends nothing', async () => {
    const r = await run(['mutations', 'budget', ACC, '--campaign', campaigns[0]!, '--amount', '50', '--type', 'daily', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      method: 'POST',
      path: '/mutations',
      headers: { 'content-type': 'application/json', 'idempotency-key': '(a new UUID when sent)' },
      body: { advertiserId: ACC, target: { type: 'campaign', id: campaigns[0] }, action: 'set_budget', budget: { amount: 50, type: 'daily' } },
    });
    expect(r.stdout + r.stderr).not.toContain(DEMO.full);
    const generic = await run([
      'mutations',
      'start',
      '--advertiser',
      ACC,
      '--action',
      'pause',
      '-f',
      'target.type=campaign',
      '-f',
      'target.id=1',
      '--idempotency-key',
      'k-1',
      '--dry-run',
    ]);
    expect(generic.code, generic.stderr).toBe(0);
    expect(JSON.parse(generic.stdout)).toMatchObject({
      headers: { 'idempotency-key': 'k-1' },
      body: { action: 'pause', target: { type: 'campaign', id: '1' } },
    });
    expect(proxy.seen).toHaveLength(0);
  });
});

describe('lost answers', () => {
  it('a POST whose answer the proxy drops: exit 0, exactly one mutation on the server', async () => {
    proxy.rule({ method: 'POST', path: '/mutations', action: 'drop-answer', times: 1 });
    const r = await run(['mutations', 'budget', ACC, '--campaign', campaigns[1]!, '--amount', '61']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/same Idempotency-Key/);
    const made = await budgetsOf(campaigns[1]!, 61);
    expect(made).toHaveLength(1);
    expect(JSON.parse(r.stdout).id).toBe(made[0]!.id);
    const posts = proxy.seen.filter((s) => s.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[0]!.headers['idempotency-key']).toBe(posts[1]!.headers['idempotency-key']);
  });

  it('a POST that never reached the server, with an older change of the same action and target: made once, the old one not adopted', async () => {
    const old = await sb.req('POST', '/mutations', {
      key: DEMO.full,
      body: { advertiserId: ACC, action: 'set_budget', target: { type: 'campaign', id: campaigns[2] }, budget: { amount: 40 } },
    });
    expect(old.status).toBe(202);
    proxy.rule({ method: 'POST', path: '/mutations', action: 'reset-before', times: 1 });
    const r = await run(['mutations', 'budget', ACC, '--campaign', campaigns[2]!, '--amount', '62', '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout);
    expect(shown.id).not.toBe(old.body.id);
    expect(shown.changes).toEqual({ budget: { amount: 62 } });
    expect(await budgetsOf(campaigns[2]!, 62)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/found it/);
  });

  it('when no send gets through it exits 10 with the key and the safe retry; the retry makes it exactly once', async () => {
    proxy.rule({ method: 'POST', path: '/mutations', action: 'reset-before' });
    const r = await run(['mutations', 'budget', ACC, '--campaign', campaigns[3]!, '--amount', '63'], { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(10);
    const key = proxy.seen.find((s) => s.method === 'POST')!.headers['idempotency-key'] as string;
    expect(r.stderr).toContain(`Idempotency-Key: ${key}`);
    expect(r.stderr).toContain(`adops mutations list --advertiser ${ACC}`);
    const retry = /Retry safely[^:]*: (adops .*)/.exec(r.stderr)![1]!;
    expect(retry).toBe(`adops mutations budget ${ACC} --campaign ${campaigns[3]} --amount 63 --idempotency-key ${key}`);
    expect(await budgetsOf(campaigns[3]!, 63)).toHaveLength(0);
    const again = await run(retry.split(' ').slice(1), { url: sb.url });
    expect(again.code, again.stderr).toBe(0);
    const twice = await run(retry.split(' ').slice(1), { url: sb.url });
    expect(JSON.parse(twice.stdout).id).toBe(JSON.parse(again.stdout).id);
    expect(await budgetsOf(campaigns[3]!, 63)).toHaveLength(1);
  }, 90_000);

  it('a mutation:write-only key: a dropped answer still ends in exit 0; a hopeless one in exit 10, not a 403 failure', async () => {
    proxy.rule({ method: 'POST', path: '/mutations', action: 'drop-answer', times: 1 });
    const ok = await run(['mutations', 'budget', ACC, '--campaign', campaigns[4]!, '--amount', '64', '--wait', '--interval', '0.1'], { key: WRITE_ONLY });
    expect(ok.code, ok.stderr).toBe(0);
    expect(await budgetsOf(campaigns[4]!, 64)).toHaveLength(1);
    proxy.clearRules();
    proxy.rule({ method: 'POST', path: '/mutations', action: 'reset-before' });
    const unsure = await run(['mutations', 'budget', ACC, '--campaign', campaigns[4]!, '--amount', '65'], { key: WRITE_ONLY, timeoutMs: 60_000 });
    expect(unsure.code, unsure.stderr).toBe(10);
    expect(unsure.stderr).toMatch(/lacks mutation:read/);
    expect(unsure.stdout + unsure.stderr).not.toContain(WRITE_ONLY);
  }, 90_000);

  it('Ctrl-C during --wait exits 130 and says how to resume; watch picks it up', async () => {
    // The provider takes 1.5 s to apply it: the change is still under way when Ctrl-C comes (this sandbox moves a
    // change on in 50 ms of its own, QUICK_MUTATIONS, which a spawned binary's first poll could see finished).
    const slow = (latencyMs: number) => faults('provider_a', 0, latencyMs);
    expect((await slow(1500)).status).toBe(200);
    const env = baseEnv({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: proxy.url, ADOPS_API_KEY: DEMO.full });
    const child = spawn(process.execPath, [BIN, 'mutations', 'pause', ACC, '--campaign', campaigns[5]!, '--wait', '--interval', '5'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    for (let i = 0; i < 200 && !/state: /.test(stderr); i++) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const id = /Resume with: adops mutations watch (mut_\w+)/.exec(stderr)?.[1];
    expect(id, stderr).toBeDefined();
    const watched = await run(['mutations', 'watch', id!, '--interval', '0.1', '--output', 'json']);
    expect(watched.code, watched.stderr).toBe(0);
    expect(JSON.parse(watched.stdout)).toMatchObject({ id, state: 'succeeded' });
    expect((await slow(0)).status).toBe(200);
  });
});
