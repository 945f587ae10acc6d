// A local store the disk will not take (#25 section 2): a write adops needs is
// a plain error naming the directory (exit 1, never "a bug in adops", never
// blamed on the user's own file); a best-effort cache that cannot be written
// is skipped and completion still answers.
//
// Tests run as root, which chmod 0500 does not stop: the config dir is put
// under a regular FILE, so every mkdir/open in it fails with ENOTDIR, for root
// too, on every file system and in every container (no mount needed).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { minimalWorld, startTestSandbox, TEST_FULL_KEY, type TestSandbox } from '../helpers/sandbox.js';
import { png } from '../unit/uploads/media-samples.js';
import { tempDir } from '../helpers/temp.js';

let sb: TestSandbox;
let stub: Server;
let stubUrl = '';

beforeAll(async () => {
  ensureBuilt();
  sb = await startTestSandbox({ world: minimalWorld() });
  // Completion's source: a loopback service answering every list with two brands.
  stub = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [{ slug: 'brand-one' }, { slug: 'brand-two' }] }));
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  stub?.closeAllConnections();
  await new Promise((r) => stub?.close(r));
  await sb?.close();
});

/** A config dir path that runs through a regular file: ENOTDIR for any write, as root too. */
function underAFile(): string {
  const file = join(tempDir('adops-h25-disk-'), 'a-file');
  writeFileSync(file, 'not a directory');
  return join(file, 'config');
}

describe('a config dir the disk will not take', () => {
  it('assets upload: exit 1 naming the directory, not "cannot read the file", nothing reserved', async () => {
    const cfg = underAFile();
    const work = tempDir('adops-h25-disk-work-');
    const p = join(work, 'pic.png');
    writeFileSync(p, png(4, 4));
    const before = (await sb.req('GET', '/assets', { key: TEST_FULL_KEY, query: { limit: 500 } })).body.data.length;
    const r = await runAdopsInProcess(['assets', 'upload', p], { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: TEST_FULL_KEY } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(join(cfg, 'uploads'));
    expect(r.stderr).toMatch(/cannot write the upload journal/);
    expect(r.stderr).not.toMatch(/cannot read the file|bug in adops/);
    expect((await sb.req('GET', '/assets', { key: TEST_FULL_KEY, query: { limit: 500 } })).body.data.length).toBe(before);
    expect(readdirSync(work)).toEqual(['pic.png']);
  });

  it('mutations apply with its journal where the disk will not write: exit 1 naming the directory, nothing sent', async () => {
    const work = tempDir('adops-h25-disk-apply-');
    const file = join(work, 'changes.csv');
    writeFileSync(file, 'advertiserId,action,targetType,targetId,name\nacc_x,rename,campaign,cmp_x,New name\n');
    const journal = join(underAFile(), 'changes.journal.ndjson');
    const env = { ADOPS_CONFIG_DIR: join(work, 'cfg'), ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: TEST_FULL_KEY };
    const before = (await sb.req('GET', '/mutations', { key: TEST_FULL_KEY, query: { limit: 500 } })).body.data.length;
    const r = await runAdopsInProcess(['mutations', 'apply', file, '--journal', journal], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`cannot write the journal of \`mutations apply\` in ${join(journal, '..')}`);
    expect(r.stderr).toMatch(/--journal PATH; nothing was sent/);
    expect((await sb.req('GET', '/mutations', { key: TEST_FULL_KEY, query: { limit: 500 } })).body.data.length).toBe(before);
  });

  it('completion: the cache cannot be written, the candidates are printed all the same', async () => {
    const r = await runAdopsInProcess(['__complete', 'brands', 'get', ''], {
      env: { ADOPS_CONFIG_DIR: underAFile(), ADOPS_BASE_URL: stubUrl, ADOPS_API_KEY: TEST_FULL_KEY, ADOPS_COMPLETE_TIMEOUT_MS: '8000' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual(['brand-one', 'brand-two']);
  });
});

/** A tiny tmpfs, when this machine lets the tests mount one (root in a privileged container); else undefined. */
function tinyDisk(): { dir: string; unmount: () => void } | undefined {
  const dir = tempDir('adops-h25-tmpfs-');
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', dir]).status !== 0) return undefined;
  return { dir, unmount: () => void spawnSync('umount', ['-l', dir]) };
}

describe('a full disk (ENOSPC, a real tmpfs filled up; skipped where mounting is not allowed)', () => {
  const disk = tinyDisk();
  afterAll(() => disk?.unmount());
  it.skipIf(!disk)('auth login: exit 1 naming the directory; the config file as it was, no temp or lock file left', async () => {
    const cfg = join(disk!.dir, 'config');
    const login = (profile: string, key: string) =>
      runAdopsInProcess(['auth', 'login', '--profile', profile, '--with-key', '--no-verify', '--url', 'http://127.0.0.1:9'], {
        env: { ADOPS_CONFIG_DIR: cfg },
        stdin: key,
      });
    expect((await login('first', 'acr_full_disk_0001')).code).toBe(0);
    const before = readFileSync(join(cfg, 'config.json'), 'utf8');
    // Fill the disk to the last block.
    writeFileSync(join(disk!.dir, 'filler'), '');
    try {
      for (;;) writeFileSync(join(disk!.dir, 'filler'), Buffer.alloc(4096), { flag: 'a' });
    } catch {
      /* ENOSPC: full */
    }
    const r = await login('second', 'acr_full_disk_0002');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`cannot write`);
    expect(r.stderr).toContain(cfg);
    expect(r.stderr).toMatch(/ENOSPC/);
    expect(r.stderr).not.toMatch(/bug in adops/);
    expect(readFileSync(join(cfg, 'config.json'), 'utf8')).toBe(before);
    expect(readdirSync(cfg)).toEqual(['config.json']);
  });

  const readOnly = tinyDisk();
  afterAll(() => readOnly?.unmount());
  it.skipIf(!readOnly)('a read-only file system (EROFS): config set is exit 1 naming the directory, the file as it was', async () => {
    const cfg = join(readOnly!.dir, 'config');
    const env = { ADOPS_CONFIG_DIR: cfg };
    expect((await runAdopsInProcess(['config', 'set', 'retries', '1'], { env })).code).toBe(0);
    const before = readFileSync(join(cfg, 'config.json'), 'utf8');
    expect(spawnSync('mount', ['-o', 'remount,ro', readOnly!.dir]).status).toBe(0);
    const r = await runAdopsInProcess(['config', 'set', 'retries', '3'], { env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(cfg);
    expect(r.stderr).toMatch(/EROFS/);
    expect(r.stderr).not.toMatch(/bug in adops/);
    expect(readFileSync(join(cfg, 'config.json'), 'utf8')).toBe(before);
  });
});
