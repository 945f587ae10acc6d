// The upload journal as CI runs it (issue 13 items 3–7, 16): fresh checkouts
// (touch, cp, rewrite of the same bytes), two organizations on one config dir,
// a journal that cannot be read, sync without proof, what a walk skips, and
// per-file failures under --output json. Built binary, real sandbox.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { minimalWorld, startTestSandbox, TEST_FULL_KEY, withOrganization, type TestSandbox } from '../helpers/sandbox.js';
import { jpeg, png } from '../unit/uploads/media-samples.js';
import { tempDir } from '../helpers/temp.js';
import { LOG_SUFFIX, RUNS_DIR } from '../../src/state/upload-log.js';
import { contentsOf, STORE_FILE } from '../../src/state/upload-store.js';

const GLOBEX_KEY = 'acr_test_org_globex_0001';
let sb: TestSandbox;
let cfg: string;
let dir: string;
const adops = (args: string[], key = TEST_FULL_KEY) =>
  runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: key }, timeoutMs: 60_000 });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  ensureBuilt();
  sb = await startTestSandbox({ world: withOrganization(minimalWorld(), 'org_globex') });
}, 60_000);
afterAll(() => sb?.close());
beforeEach(() => {
  cfg = tempConfigDir();
  dir = tempDir('adops-state-');
});

async function assets(key = TEST_FULL_KEY): Promise<Array<Record<string, any>>> {
  return (await sb.req('GET', '/assets', { key, query: { limit: 500 } })).body.data;
}
const withBytes = async (b: Buffer, key = TEST_FULL_KEY) => (await assets(key)).filter((a) => a.sha256 === sha(b));
const firstId = (stdout: string) => JSON.parse(stdout)[0].id as string;

function put(name: string, bytes: Buffer | string): string {
  const p = join(dir, name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, bytes);
  return p;
}

describe('a file already uploaded from this machine is shown, not sent again (same SHA-256)', () => {
  it('after touch, cp and a rewrite of the same bytes (a checkout): the same Asset, nothing sent', async () => {
    const bytes = png(31, 17);
    const p = put('hero.png', bytes);
    const first = await adops(['assets', 'upload', p, '--output', 'json']);
    expect(first.code, first.stderr).toBe(0);
    const id = firstId(first.stdout);

    utimesSync(p, new Date(Date.now() + 60_000), new Date(Date.now() + 60_000)); // touch
    const touched = await adops(['assets', 'upload', p, '--output', 'json']);
    expect(touched.code, touched.stderr).toBe(0);
    expect(firstId(touched.stdout)).toBe(id);
    expect(touched.stderr).toContain(`already uploaded as ${id} (same SHA-256); nothing sent`);

    const copy = join(dir, 'copy', 'hero-copy.png');
    mkdirSync(join(copy, '..'));
    copyFileSync(p, copy); // cp: another path, a new mtime
    const copied = await adops(['assets', 'upload', copy, '--output', 'json']);
    expect(copied.code, copied.stderr).toBe(0);
    expect(firstId(copied.stdout)).toBe(id);

    writeFileSync(p, bytes); // a checkout or cache restore writes the same bytes anew
    const rewritten = await adops(['assets', 'upload', p, '--output', 'json']);
    expect(firstId(rewritten.stdout)).toBe(id);
    expect(await withBytes(bytes)).toHaveLength(1);
  });
});

describe('journal entries are keyed by the service as the rest of the store keys it', () => {
  it('the base URL spelt with and without its trailing slash is one service: the same Asset, nothing sent', async () => {
    const bytes = png(23, 29);
    const p = put('slash.png', bytes);
    const withSlash = await runAdopsInProcess(['assets', 'upload', p, '--output', 'json'], {
      env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: `${sb.url}/`, ADOPS_API_KEY: TEST_FULL_KEY },
      timeoutMs: 60_000,
    });
    expect(withSlash.code, withSlash.stderr).toBe(0);
    const without = await adops(['assets', 'upload', p, '--output', 'json']);
    expect(without.code, without.stderr).toBe(0);
    expect(firstId(without.stdout)).toBe(firstId(withSlash.stdout));
    expect(without.stderr).toContain('already uploaded as');
    expect(await withBytes(bytes)).toHaveLength(1);
  });
});

describe('journal entries are scoped by organization', () => {
  it('Acme, then Globex, then Acme again on one config dir: one copy in each organization', async () => {
    const bytes = jpeg(12, 34);
    const p = put('shared.jpg', bytes);
    const acme = await adops(['assets', 'upload', p, '--output', 'json']);
    const globex = await adops(['assets', 'upload', p, '--output', 'json'], GLOBEX_KEY);
    const again = await adops(['assets', 'upload', p, '--output', 'json']);
    for (const r of [acme, globex, again]) expect(r.code, r.stderr).toBe(0);
    expect(firstId(globex.stdout)).not.toBe(firstId(acme.stdout));
    expect(firstId(again.stdout)).toBe(firstId(acme.stdout));
    expect(again.stderr).toContain('already uploaded as');
    expect(await withBytes(bytes)).toHaveLength(1);
    expect(await withBytes(bytes, GLOBEX_KEY)).toHaveLength(1);
    // And Globex again finds its own.
    const globexAgain = await adops(['assets', 'upload', p, '--output', 'json'], GLOBEX_KEY);
    expect(firstId(globexAgain.stdout)).toBe(firstId(globex.stdout));
  });
});

describe('a journal that cannot be read', () => {
  for (const [what, garbage] of [
    ['cut short', '{"v":2,"target":"asset","size":'],
    ['garbage', '\u0000\u0001not json at all'],
  ] as const) {
    it(`(${what}) is named on stderr, its bytes kept aside, and the run goes on`, async () => {
      const p = put('j.png', png(5, 6));
      expect((await adops(['assets', 'upload', p])).code).toBe(0);
      const root = join(cfg, 'uploads');
      const rel = readdirSync(root, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('.json'))!;
      writeFileSync(join(root, rel), garbage);
      const r = await adops(['assets', 'upload', p, '--output', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`the upload journal ${join(root, rel)} could not be read`);
      const aside = readdirSync(root, { recursive: true, encoding: 'utf8' }).find((f) => f.includes('.corrupt-'))!;
      expect(readFileSync(join(root, aside), 'utf8')).toBe(garbage);
      expect(JSON.parse(r.stdout)[0]).toMatchObject({ state: 'ready' });
    });
  }
});

describe('assets sync without proof of the bytes', () => {
  it('a same-name same-size Asset that shows no checksum is uploaded by default; --match-name-size counts it', async () => {
    const old = png(9, 9);
    const p = put('s/banner.png', old);
    expect((await adops(['assets', 'sync', join(dir, 's')])).code).toBe(0);
    // A deployment (or an older row) that shows no checksum.
    (sb.services.db as { prepare(sql: string): { run(...a: unknown[]): unknown } }).prepare('UPDATE assets SET sha256 = NULL WHERE sha256 = ?').run(sha(old));
    const changed = Buffer.from(old);
    changed.writeUInt8(changed.readUInt8(changed.length - 5) ^ 0xff, changed.length - 5); // same size, other bytes
    writeFileSync(p, changed);

    cfg = tempConfigDir(); // a fresh CI runner: no journal
    const dry = await adops(['assets', 'sync', join(dir, 's'), '--dry-run', '--output', 'json']);
    expect(JSON.parse(dry.stdout)[0]).toMatchObject({ result: 'to upload' });
    expect(dry.stderr).toMatch(/1 of them match a ready Asset by name and size only .*--match-name-size/);
    const opted = await adops(['assets', 'sync', join(dir, 's'), '--match-name-size', '--output', 'json']);
    expect(JSON.parse(opted.stdout)[0]).toMatchObject({ result: 'already there', matchedBy: 'name+size' });
    const r = await adops(['assets', 'sync', join(dir, 's'), '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ result: 'uploaded' });
    expect(await withBytes(changed)).toHaveLength(1);
  });
});

describe('assets sync with nothing to send (#37)', () => {
  it("reads a dead run's log but writes nothing: no fold, no log, no lock; the next run that uploads folds it", async () => {
    put('r/a.png', png(3, 4));
    put('r/b.png', png(4, 3));
    expect((await adops(['assets', 'sync', join(dir, 'r')])).code).toBe(0);
    // What a run killed before its fold leaves: its records in its log, a lock naming a dead pid, no store file.
    const root = join(cfg, 'uploads');
    const store = readdirSync(root, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith(`/${STORE_FILE}`))!;
    const scope = store.slice(0, -STORE_FILE.length - 1);
    const records = [...contentsOf(readFileSync(join(root, store), 'utf8'))!].map(([name, c]) =>
      JSON.stringify({ file: `${scope}/${name}`, gen: c.gen, content: c }),
    );
    rmSync(join(root, store));
    mkdirSync(join(root, RUNS_DIR), { recursive: true });
    const log = join(root, RUNS_DIR, `1-dead${LOG_SUFFIX}`);
    writeFileSync(log, records.join('\n') + '\n');
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(`${log}.lock`, JSON.stringify({ pid: deadPid, host: hostname(), since: Date.now(), token: 'dead' }) + '\n');
    const before = readdirSync(root, { recursive: true, encoding: 'utf8' }).sort();

    const again = await adops(['assets', 'sync', join(dir, 'r'), '--output', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).map((r: { result: string; matchedBy: string }) => [r.result, r.matchedBy])).toEqual([
      ['already there', 'sha256 (journal)'],
      ['already there', 'sha256 (journal)'],
    ]);
    expect(readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()).toEqual(before); // nothing written, nothing folded

    put('r/c.png', png(5, 5));
    expect((await adops(['assets', 'sync', join(dir, 'r')])).code).toBe(0);
    expect(readdirSync(join(root, RUNS_DIR))).toEqual([]); // folded by the run that uploaded
    expect(contentsOf(readFileSync(join(root, store), 'utf8'))!.size).toBe(3);
  });
});

describe('what assets sync walks past', () => {
  it('follows a file symlink inside the tree; lists every skipped entry with its reason', async () => {
    const root = join(dir, 'tree');
    put('tree/real.png', png(3, 4));
    put('tree/.hidden.png', png(4, 5));
    put('tree/.git/config', 'x');
    put('outside.png', png(6, 7));
    symlinkSync(join(root, 'real.png'), join(root, 'inside-link.png'));
    symlinkSync(join(dir, 'outside.png'), join(root, 'outside-link.png'));
    symlinkSync(join(root, 'sub'), join(root, 'dir-link'));
    put('tree/sub/deep.png', png(8, 9));
    symlinkSync(join(root, 'missing.png'), join(root, 'broken.png'));
    execFileSync('mkfifo', [join(root, 'pipe.png')]);
    const r = await adops(['assets', 'sync', root, '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ file: string; result: string; error: string | null }>;
    const byFile = Object.fromEntries(rows.map((x) => [x.file.slice(root.length + 1), [x.result, x.error]]));
    // The link and its target are the same bytes: uploaded once (whichever came first), the other shows it.
    expect([byFile['inside-link.png']![0], byFile['real.png']![0]].sort()).toEqual(['already there', 'uploaded']);
    delete byFile['inside-link.png'];
    delete byFile['real.png'];
    expect(byFile).toEqual({
      'sub/deep.png': ['uploaded', null],
      '.git': ['skipped', 'dot-named directory (hidden; not walked)'],
      '.hidden.png': ['skipped', 'dot-named file (hidden)'],
      'broken.png': ['skipped', 'broken symlink'],
      'dir-link': ['skipped', 'symlink to a directory (not followed)'],
      'outside-link.png': ['skipped', `symlink to ${join(dir, 'outside.png')}, outside the directory`],
      'pipe.png': ['skipped', 'a FIFO (named pipe)'],
    });
    expect(r.stderr).toContain('skipped 6 entries:');
    for (const name of ['.git', '.hidden.png', 'broken.png', 'dir-link', 'outside-link.png', 'pipe.png']) expect(r.stderr).toContain(`${join(root, name)}: `);
  });
});

describe('per-file failures under --output json and ndjson', () => {
  for (const format of ['json', 'ndjson'] as const) {
    it(`are JSON error objects on stderr (${format}), one per file`, async () => {
      const good = put('ok.png', png(2, 3));
      const bad = put('notes.png', 'just text\n');
      const r = await adops(['assets', 'upload', good, bad, '--output', format]);
      expect(r.code).toBe(7);
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('{'));
      expect(lines).toHaveLength(1);
      const { error } = JSON.parse(lines[0]!);
      expect(error).toMatchObject({ code: 'unsupported_type', exitCode: 7, extra: { file: bad } });
      expect(error.message).toContain('not a type an Asset accepts');
      expect(r.stderr).not.toMatch(/not done:/); // no plain-text summary beside the objects
    });
  }
});
