// No 2xx taken on faith (#25 §4), through the BUILT binary: a hostile proxy in
// front of a real sandbox forwards each request, then rewrites chosen success
// answers. A 2xx to POST /mutations that names no mutation is "could not tell
// whether it started" (exit 10, the row kept in doubt with its key, and a
// re-run against the real service finishes it, made once); a poll whose
// answer carries no final state of the contract never ends a --wait with 0.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { allMutations, campaignsOf } from '../helpers/drop-proxy.js';
import { DEMO_WORLD, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { virtualClock } from '../helpers/virtual-clock.js';
import { SOCIAL_LINE_ITEM } from '../helpers/plans.js';
import { DEMO_LINE_ITEMS, DEMO_PLAN } from '../../src/sandbox/fixtures/demo-plan-ids.js';

const ACC = 'acc_acme_a_001';
type Rewrite = (req: { method: string; path: string }, upstream: { status: number; body: string }) => { status: number; body: string } | undefined;

let sb: TestSandbox;
let proxyUrl = '';
let rewrite: Rewrite = () => undefined;
const seen: Array<{ method: string; path: string; key: string | undefined }> = [];
let campaigns: string[] = [];
const dir = tempDir('adops-h25-faith-');

/** Forwards every request to the sandbox (the change is really made); `rewrite` may replace the answer. */
const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const path = (req.url ?? '/').split('?')[0]!;
    const idem = req.headers['idempotency-key'];
    seen.push({ method: req.method ?? '', path, key: typeof idem === 'string' ? idem : undefined });
    const to = new URL(sb.url);
    const up = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host } }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (c: Buffer) => parts.push(c));
      answer.on('end', () => {
        const upstream = { status: answer.statusCode ?? 502, body: Buffer.concat(parts).toString('utf8') };
        const out = rewrite({ method: req.method ?? '', path }, upstream) ?? upstream;
        res.writeHead(out.status, { 'content-type': 'application/json' });
        res.end(out.body);
      });
    });
    up.on('error', () => req.socket.destroy());
    up.end(Buffer.concat(chunks));
  });
});

beforeAll(async () => {
  ensureBuilt();
  sb = await startTestSandbox({ world: DEMO_WORLD });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  campaigns = (await campaignsOf(sb, DEMO.full, ACC)).map((c) => c.id);
}, 60_000);

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((r) => proxy.close(r));
  await sb?.close();
});

beforeEach(() => {
  rewrite = () => undefined;
  seen.splice(0);
});

const cfg = tempConfigDir();
const run = (args: string[], base = proxyUrl) =>
  runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: base, ADOPS_API_KEY: DEMO.full }, timeoutMs: 60_000 });
/**
 * A run whose POST is resent until it gives up, on a virtual clock: the resends' back-off (0.5 + 1 + 2 s) costs a
 * turn of the event loop instead of ~3.5 s of real waiting; what reached the server and the exit are the same. Only
 * for runs that never poll the sandbox (it moves on the real clock).
 */
const runResending = (args: string[]) =>
  runAdopsInProcess(args, {
    env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: proxyUrl, ADOPS_API_KEY: DEMO.full },
    timeoutMs: 60_000,
    clock: virtualClock(Date.now()),
  });

/** POST /mutations answered 201 `{}` after the sandbox made the change. */
const blankStart: Rewrite = (req) => (req.method === 'POST' && req.path === '/mutations' ? { status: 201, body: '{}' } : undefined);

const namedOnServer = async (name: string) => (await allMutations(sb, DEMO.full)).filter((m) => m.changes.name === name);

describe('a 2xx to POST /mutations without a mutation id is "could not tell", not a started change', () => {
  it('mutations apply: exit 10, the journal row keeps its Idempotency-Key and no mutation id; a re-run against the real service sends that key and completes, made once', async () => {
    const file = join(dir, 'blank.csv');
    writeFileSync(file, `advertiserId,action,targetType,targetId,name\n${ACC},rename,campaign,${campaigns[0]},h25 faith blank\n`);
    rewrite = blankStart;
    const first = await runResending(['mutations', 'apply', file, '--output', 'json']);
    expect(first.code, first.stderr).toBe(10);
    const rows = JSON.parse(first.stdout) as Array<{ mutationId: unknown; state: string; error: string }>;
    expect(rows[0]).toMatchObject({ mutationId: null, state: 'unknown' });
    expect(rows[0]!.error).toMatch(/could not tell whether the change started: unexpected answer to POST \/mutations: id: missing/);
    const lines = readFileSync(`${file}.adops-journal.ndjson`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const last = lines.at(-1)!;
    expect(last.mutationId ?? null).toBeNull();
    expect(JSON.stringify(lines)).not.toContain('undefined');
    const key = last.idempotencyKey as string;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const posts = seen.filter((s) => s.method === 'POST' && s.path === '/mutations');
    expect(posts.length).toBeGreaterThan(1); // resent with the same key before giving up
    expect(new Set(posts.map((p) => p.key))).toEqual(new Set([key]));

    // The same service answering honestly now, same file: the row in doubt is sent again with its key; the
    // change exists once. (Through the same base URL: the journal's rows belong to the service they were sent to.)
    rewrite = () => undefined;
    seen.splice(0);
    const second = await run(['mutations', 'apply', file, '--output', 'json']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/in doubt from an earlier run; sending again with its Idempotency-Key/);
    const done = JSON.parse(second.stdout) as Array<{ mutationId: string }>;
    expect(done[0]!.mutationId).toMatch(/^mut_/);
    expect(new Set(seen.filter((s) => s.method === 'POST' && s.path === '/mutations').map((p) => p.key))).toEqual(new Set([key]));
    const made = await namedOnServer('h25 faith blank');
    expect(made).toHaveLength(1);
    expect(made[0]!.id).toBe(done[0]!.mutationId);
    const journal = readFileSync(`${file}.adops-journal.ndjson`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(journal.at(-1)).toMatchObject({ idempotencyKey: key, mutationId: done[0]!.mutationId });
  }, 60_000);

  it('mutations rename --wait: exit 10 with the key to retry with, not 0', async () => {
    rewrite = blankStart;
    // It gives up before its first poll (no GET /mutations/… below), so the virtual clock is safe with --wait here.
    const r = await runResending(['mutations', 'rename', ACC, '--campaign', campaigns[1]!, '--name', 'h25 faith wait', '--wait', '--timeout', '5']);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toMatch(/could not tell whether the change started/);
    expect(r.stderr).toMatch(/--idempotency-key [0-9a-f-]{36}/);
    expect(r.stdout).toBe('');
    expect(seen.some((s) => s.method === 'GET' && s.path.startsWith('/mutations/'))).toBe(false);
  }, 30_000);
});

describe('--wait never ends 0 without having read a final state', () => {
  let id = '';
  beforeAll(async () => {
    const res = await sb.req('POST', '/mutations', {
      key: DEMO.full,
      body: { advertiserId: ACC, action: 'rename', target: { type: 'campaign', id: campaigns[2] }, name: 'h25 faith poll' },
    });
    id = res.body.id;
  });

  /** GET /mutations/{id} answered 200 with `body` (built from the real answer). */
  const pollAnswers =
    (make: (real: Record<string, unknown>) => unknown): Rewrite =>
    (req, upstream) =>
      req.method === 'GET' && req.path === `/mutations/${id}` ? { status: 200, body: JSON.stringify(make(JSON.parse(upstream.body))) } : undefined;

  const cases: Array<[string, (real: Record<string, unknown>) => unknown]> = [
    ['an answer without a state field (status: done instead)', ({ state: _s, ...rest }) => ({ ...rest, status: 'done' })],
    ['an unknown state word', (real) => ({ ...real, state: 'done' })],
    ['a body of the wrong shape (a list)', (real) => [{ ...real, state: 'succeeded' }]],
    ['a body of the wrong shape (a string)', () => 'succeeded'],
  ];

  for (const [what, make] of cases) {
    it(`mutations watch and mutations get --wait: ${what} is an unexpected answer, exit 1`, async () => {
      rewrite = pollAnswers(make);
      for (const args of [
        ['mutations', 'watch', id, '--timeout', '3', '--interval', '0.1'],
        ['mutations', 'get', id, '--wait', '--timeout', '3', '--interval', '0.1'],
      ]) {
        const r = await run(args);
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
        expect(r.stderr).toMatch(/unexpected_answer.*GET \/mutations\/\{id\}/);
      }
    }, 30_000);
  }

  it('a state still running beside a status that says succeeded: still running at the timeout (exit 8), not done', async () => {
    rewrite = pollAnswers((real) => ({ ...real, state: 'running', status: 'succeeded' }));
    const r = await run(['mutations', 'watch', id, '--timeout', '1', '--interval', '0.1']);
    expect(r.code, r.stderr).toBe(8);
    expect(r.stderr).toMatch(/still running after 1 s/);
  }, 30_000);

  it('mutations apply --wait: a poll without a final state marks the row "unexpected answer", exit 1', async () => {
    const file = join(dir, 'poll.csv');
    writeFileSync(file, `advertiserId,action,targetType,targetId,name\n${ACC},rename,campaign,${campaigns[3]},h25 faith apply poll\n`);
    rewrite = (req, upstream) =>
      req.method === 'GET' && /^\/mutations\/mut_/.test(req.path)
        ? { status: 200, body: JSON.stringify({ ...JSON.parse(upstream.body), state: 'done' }) }
        : undefined;
    const r = await run(['mutations', 'apply', file, '--wait', '--timeout', '5', '--interval', '0.1', '--output', 'json']);
    expect(r.code, r.stderr).toBe(1);
    const rows = JSON.parse(r.stdout) as Array<{ state: string; error: string; mutationId: string }>;
    expect(rows[0]).toMatchObject({ state: 'unexpected answer' });
    expect(rows[0]!.mutationId).toMatch(/^mut_/);
    expect(rows[0]!.error).toMatch(/state: not one of pending, running, succeeded, failed/);
  }, 30_000);
});

describe('plans apply and a revision-safe edit act only on answers that carry what the next step needs', () => {
  const social = SOCIAL_LINE_ITEM;

  it('plans apply: a 2xx to the create without slug and revision is exit 1 unexpected_answer, no Line Item sent; the next run (real service) finishes it', async () => {
    const slug = 'h25-faith-plan';
    const file = join(dir, `${slug}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        slug,
        name: 'Plan',
        currency: 'USD',
        budget: 10000,
        startDate: '2026-10-01',
        endDate: '2026-10-31',
        lineItems: [social, { ...social, name: 'Two', budget: 50 }],
      }),
    );
    rewrite = (req) => (req.method === 'POST' && req.path === '/context/campaign-plans' ? { status: 201, body: '{}' } : undefined);
    const r = await run(['plans', 'apply', file]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/unexpected answer to POST \/context\/campaign-plans: slug: missing; revision: missing/);
    expect(seen.filter((s) => s.path.includes('/line-items'))).toEqual([]);
    // The plan was made (the proxy forwarded it): the run's marker stays, so the next run replaces that draft.
    expect((await sb.req('GET', `/context/campaign-plans/${slug}`, { key: DEMO.full })).status).toBe(200);
    // The same service again (markers are kept per service), answering as the contract says this time.
    rewrite = () => undefined;
    const again = await run(['plans', 'apply', file, '--output', 'json']);
    expect(again.stderr).toMatch(/deleting it to apply this file anew/);
    expect(again.code, again.stderr).toBe(0);
    expect((await sb.req('GET', `/context/campaign-plans/${slug}`, { key: DEMO.full })).body.lineItems).toHaveLength(2);
  }, 30_000);

  it('brands update: a read or a write answer without a revision is exit 1 unexpected_answer, not "a bug in adops"', async () => {
    const slug = 'h25-faith-brand';
    expect((await sb.req('POST', '/context/brands', { key: DEMO.full, body: { slug, name: 'Faith' } })).status).toBe(201);
    const strip =
      (method: string): Rewrite =>
      (req, upstream) => {
        if (req.method !== method || req.path !== `/context/brands/${slug}` || upstream.status >= 300) return undefined;
        const { revision: _r, ...rest } = JSON.parse(upstream.body) as Record<string, unknown>;
        return { status: upstream.status, body: JSON.stringify(rest) };
      };
    for (const [method, op] of [
      ['GET', 'GET /context/brands/{slug}'],
      ['PATCH', 'PATCH /context/brands/{slug}'],
    ] as const) {
      rewrite = strip(method);
      const r = await run(['brands', 'update', slug, '--description', `via ${method}`]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`unexpected answer to ${op}: revision: missing`);
      expect(r.stderr).not.toMatch(/bug in adops/);
    }
  }, 30_000);
});

describe('plans line-items readiness: `ready` decides the exit code and ends a wait, so it must be there', () => {
  const path = `/context/campaign-plans/${DEMO_PLAN.slug}/line-items/${DEMO_LINE_ITEMS.prospecting}/readiness`;
  const op = 'GET /context/campaign-plans/{slug}/line-items/{lineItemId}/readiness';
  for (const [what, body, problem] of [
    ['no ready', { lineItemId: DEMO_LINE_ITEMS.prospecting, missing: [] }, 'ready: missing'],
    ['ready as a word', { lineItemId: DEMO_LINE_ITEMS.prospecting, ready: 'yes', missing: [] }, 'ready: must be true or false'],
  ] as const) {
    it(`${what}: exit 1 unexpected_answer, at once, with and without --wait (not "not ready", not a wait to its timeout)`, async () => {
      rewrite = (req) => (req.method === 'GET' && req.path === path ? { status: 200, body: JSON.stringify(body) } : undefined);
      const once = await run(['plans', 'line-items', 'readiness', DEMO_PLAN.slug, DEMO_LINE_ITEMS.prospecting, '--json']);
      expect(once.code, once.stderr).toBe(1);
      expect(once.stderr).toContain(`unexpected answer to ${op}: ${problem}`);
      expect(once.stdout).toBe('');
      const started = Date.now();
      const waited = await run([
        'plans',
        'line-items',
        'readiness',
        DEMO_PLAN.slug,
        DEMO_LINE_ITEMS.prospecting,
        '--wait',
        '--interval',
        '0.1',
        '--timeout',
        '20',
      ]);
      expect(waited.code, waited.stderr).toBe(1);
      expect(waited.stderr).toContain(`unexpected answer to ${op}: ${problem}`);
      expect(Date.now() - started).toBeLessThan(10_000);
    }, 40_000);
  }
});
