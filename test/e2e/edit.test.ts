// Revision-safe edits (issue 8), the built binary against the demo sandbox (in this process).
// Races are made deterministic with a loopback proxy between the CLI and the
// sandbox: before it forwards the CLI's first PATCH of a row, another writer
// changes that row through the API, so the CLI's write meets 409
// revision_mismatch exactly as it would with a real concurrent writer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ensureBuilt, runAdops, tempConfigDir } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { request } from '../helpers/sandbox.js';

let sandbox: DemoSandbox;
let proxy: { url: string; server: Server; before: Map<string, () => Promise<void>>; patches: string[] };
let cfg: string;
const key = DEMO.full;

const api = async (method: string, path: string, body?: unknown) => {
  const r = await request(sandbox.url, method, path, { key, ...(body !== undefined ? { body } : {}) });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.body;
};
/** Another writer: read the row, change `changes` at its revision. */
const otherWriter =
  (path: string, changes: Record<string, unknown>, read = path, pick = (b: any) => b) =>
  async () => {
    const row = pick(await api('GET', read));
    await api('PATCH', path, { ...changes, revision: row.revision });
  };
// In process (helpers/run-in-process.ts), or the binary when the test is about separate processes.
const adops = (args: string[], opts: { viaProxy?: boolean; env?: Record<string, string>; spawned?: boolean } = {}) =>
  (opts.spawned ? runAdops : runAdopsInProcess)(args, {
    env: { ADOPS_CONFIG_DIR: cfg, ADOPS_API_KEY: key, ADOPS_BASE_URL: opts.viaProxy ? proxy.url : sandbox.url, ...opts.env },
  });

/** Forwards everything to the sandbox; runs `before.get(path)` once before forwarding the first PATCH of that path. */
function startProxy(target: string): Promise<typeof proxy> {
  const before = new Map<string, () => Promise<void>>();
  const patches: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.method === 'PATCH') {
        patches.push(path);
        const hook = before.get(path);
        before.delete(path);
        await hook?.();
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(target + req.url, { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, before, patches })),
  );
}

let n = 0;
const newBrand = async (fields: Record<string, unknown> = {}) => {
  const slug = `race-${++n}`;
  await api('POST', '/context/brands', { slug, name: 'Acme', description: 'd0', ...fields });
  return slug;
};

beforeAll(async () => {
  ensureBuilt();
  cfg = tempConfigDir();
  sandbox = await startDemoSandbox();
  proxy = await startProxy(sandbox.url);
}, 60_000);

afterAll(async () => {
  proxy?.server.close();
  await sandbox?.stop();
});

describe('update: racing writers', () => {
  it('different fields of one brand: both changes land (re-applied on the new revision)', async () => {
    const slug = await newBrand();
    proxy.before.set(`/context/brands/${slug}`, otherWriter(`/context/brands/${slug}`, { voice: 'Theirs voice' }));
    const r = await adops(['brands', 'update', slug, '--description', 'Ours', '--json'], { viaProxy: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/changed meanwhile \(revision 2: voice\); re-applying yours/);
    expect(JSON.parse(r.stdout)).toMatchObject({ description: 'Ours', voice: 'Theirs voice', revision: 3 });
    expect(await api('GET', `/context/brands/${slug}`)).toMatchObject({ description: 'Ours', voice: 'Theirs voice' });
  });

  it('two adops processes at once on different fields: both land', async () => {
    const slug = await newBrand();
    for (let i = 0; i < 3; i++) {
      const [a, b] = await Promise.all([
        adops(['brands', 'update', slug, '--description', `desc ${i}`], { spawned: true }),
        adops(['brands', 'update', slug, '--voice', `voice ${i}`], { spawned: true }),
      ]);
      expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
      expect(await api('GET', `/context/brands/${slug}`)).toMatchObject({ description: `desc ${i}`, voice: `voice ${i}` });
    }
  });

  it('the same field: exit 5, both values shown, theirs kept', async () => {
    const slug = await newBrand();
    proxy.before.set(`/context/brands/${slug}`, otherWriter(`/context/brands/${slug}`, { description: 'Theirs' }));
    const r = await adops(['brands', 'update', slug, '--description', 'Ours', '--name', 'Acme Two'], { viaProxy: true });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`brand ${slug} was changed by someone else since it was read (now revision 2); the same field:`);
    expect(r.stderr).toContain('  description:\n    theirs:\n      "Theirs"\n    yours:\n      "Ours"\n');
    expect(r.stderr).toMatch(/error: edit_conflict: not saved: description of brand race-\d+ changed meanwhile/);
    expect(r.stderr).toMatch(/--force/);
    // Nothing of ours was written, not even the field nobody else touched.
    expect(await api('GET', `/context/brands/${slug}`)).toMatchObject({ description: 'Theirs', name: 'Acme', revision: 2 });
  });

  it('the same field with --force: yours lands over theirs, and says whose it replaced', async () => {
    const slug = await newBrand();
    proxy.before.set(`/context/brands/${slug}`, otherWriter(`/context/brands/${slug}`, { description: 'Theirs' }));
    const r = await adops(['brands', 'update', slug, '--description', 'Ours', '--force'], { viaProxy: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('--force: wrote your description over theirs ("Theirs")');
    expect(await api('GET', `/context/brands/${slug}`)).toMatchObject({ description: 'Ours', revision: 3 });
  });

  it('a Line Item (read through its plan): other field lands with ours; the same field exits 5', async () => {
    await api('POST', '/context/campaign-plans', { slug: 'race-plan', name: 'Race', currency: 'USD' });
    const li = (await api('POST', '/context/campaign-plans/race-plan/line-items', { name: 'Social', budget: 100 })) as { lineItemId: string };
    const path = `/context/campaign-plans/race-plan/line-items/${li.lineItemId}`;
    const pick = (plan: any) => plan.lineItems.find((x: any) => x.lineItemId === li.lineItemId);
    proxy.before.set(path, otherWriter(path, { budget: 250 }, '/context/campaign-plans/race-plan', pick));
    const r = await adops(['plans', 'line-items', 'update', 'race-plan', li.lineItemId, '--name', 'Social, US', '--json'], { viaProxy: true });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'Social, US', budget: 250, revision: 3 });

    proxy.before.set(path, otherWriter(path, { budget: 300 }, '/context/campaign-plans/race-plan', pick));
    const same = await adops(['plans', 'line-items', 'update', 'race-plan', li.lineItemId, '--budget', '400'], { viaProxy: true });
    expect(same.code).toBe(5);
    expect(same.stderr).toContain('  budget:\n    theirs:\n      300\n    yours:\n      400\n');
    expect(pick(await api('GET', '/context/campaign-plans/race-plan'))).toMatchObject({ budget: 300 });

    const missing = await adops(['plans', 'line-items', 'update', 'race-plan', 'li_nope', '--name', 'x']);
    expect(missing.code).toBe(4);
  });

  it('assets rename: a rename by someone else meanwhile exits 5', async () => {
    const asset = (await api('POST', '/assets/uploads', { filename: 'hero.png' })) as { id: string };
    proxy.before.set(`/assets/${asset.id}`, otherWriter(`/assets/${asset.id}`, { filename: 'theirs.png' }));
    const r = await adops(['assets', 'rename', asset.id, '--filename', 'ours.png'], { viaProxy: true });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('"theirs.png"');
    expect(r.stderr).toContain('"ours.png"');
    expect(await api('GET', `/assets/${asset.id}`)).toMatchObject({ filename: 'theirs.png' });
  });
});

describe('update: explicit --revision and no-ops', () => {
  it('a stale --revision exits 5 naming the current one, and writes nothing', async () => {
    const slug = await newBrand();
    expect((await adops(['brands', 'update', slug, '--revision', '1', '--description', 'first'])).code).toBe(0);
    const r = await adops(['brands', 'update', slug, '--revision', '1', '--description', 'second']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`brand ${slug} is at revision 2, not 1: nothing written`);
    expect(r.stderr).toMatch(/revision_mismatch \(409\)/);
    const json = await adops(['brands', 'update', slug, '--revision', '1', '--description', 'second', '--json']);
    expect(JSON.parse(json.stderr.split('\n').find((l) => l.startsWith('{'))!).error).toMatchObject({
      code: 'revision_mismatch',
      extra: { currentRevision: 2 },
      exitCode: 5,
    });
    expect(await api('GET', `/context/brands/${slug}`)).toMatchObject({ description: 'first', revision: 2 });
  });

  it('a revision given in --input counts as explicit too', async () => {
    const slug = await newBrand();
    const r = await runAdopsInProcess(['brands', 'update', slug, '--input', '-'], {
      stdin: '{"revision": 7, "voice": "x"}',
      env: { ADOPS_CONFIG_DIR: cfg, ADOPS_API_KEY: key, ADOPS_BASE_URL: sandbox.url },
    });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('is at revision 1, not 7');
  });

  it('--force with --revision, and an update with nothing to change, are usage errors sent nowhere', async () => {
    const slug = await newBrand();
    const both = await adops(['brands', 'update', slug, '--revision', '1', '--force', '--voice', 'x'], { env: { ADOPS_DEBUG: '1' } });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--force cannot be used with --revision');
    expect(both.stderr).not.toMatch(/→/);
    const none = await adops(['brands', 'update', slug], { env: { ADOPS_DEBUG: '1' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/nothing to change/);
    expect(none.stderr).not.toMatch(/→/);
  });

  it('values the row already holds: says so and sends no write', async () => {
    const slug = await newBrand();
    const r = await adops(['brands', 'update', slug, '--description', 'd0'], { env: { ADOPS_DEBUG: '1' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/no change: brand race-\d+ already holds these values \(revision 1\); nothing sent/);
    expect(r.stderr).toMatch(/→ GET/);
    expect(r.stderr).not.toMatch(/→ PATCH/);
  });

  it('skills and personas update the same way (lists included)', async () => {
    await api('POST', '/context/skills', { slug: 'race-skill', name: 'Pacing', body: 'v1' });
    const s = await adops(['skills', 'update', 'race-skill', '--description', 'How to pace', '--json']);
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ description: 'How to pace', body: 'v1', revision: 2 });
    const slug = await newBrand();
    await api('POST', `/context/brands/${slug}/personas`, { slug: 'hiker', name: 'Hiker', goals: ['summit'] });
    const p = await adops(['brands', 'personas', 'update', slug, 'hiker', '--goals', 'summit,camp', '--json']);
    expect(p.code, p.stderr).toBe(0);
    expect(JSON.parse(p.stdout)).toMatchObject({ goals: ['summit', 'camp'], revision: 2 });
  });
});
