// A sandbox whose store already holds its world listens before its services
// and routes are loaded (#16, src/sandbox/index.ts bootSandbox): a request that
// comes meanwhile waits and gets the answer it would get later; a sandbox
// closed meanwhile closes and starts nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { bootSandbox, startSandbox } from '../../../src/sandbox/index.js';
import { writeDemoSnapshot } from '../../../src/sandbox/fixtures/snapshot-build.js';
import { DEMO_KEYS } from '../../../src/sandbox/fixtures/demo.js';
import { ManualClock } from '../clock.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
let snapshot: string;
beforeAll(() => {
  dir = tempDir('adops-boot-');
  snapshot = join(dir, 'demo-world.db');
  writeDemoSnapshot(snapshot);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clock = new ManualClock();
const get = async (url: string, path: string, key?: string) => {
  const res = await fetch(`${url}${path}`, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  return { status: res.status, body: await res.text() };
};
const PATHS: Array<[string, string | undefined]> = [
  ['/observe/campaigns?advertiserId=acc_acme_a_001&limit=3', DEMO_KEYS['acme-full']],
  ['/observe/campaigns?limit=1', undefined],
  ['/observe/campaigns?limit=1', DEMO_KEYS['acme-revoked']],
  ['/observe/campaigns?limit=-1', DEMO_KEYS['acme-full']],
  ['/no/such/path', undefined],
  ['/_sandbox/health', undefined],
];

it('requests sent before the routes are loaded are answered as they are after', async () => {
  // A new file: the image is taken with either driver (in memory, node:sqlite may lack deserialize()).
  const booted = await bootSandbox({ port: 0, data: join(dir, 'early.db'), quiet: true, clock, snapshot });
  try {
    expect(booted.world).toBe('snapshot');
    expect(booted.keys.map((k) => k.label)).toContain('acme-full');
    let ready = false;
    void booted.ready.then(() => (ready = true));
    const early = await Promise.all(PATHS.map(([path, key]) => get(booted.url, path, key)));
    expect(ready).toBe(true); // they waited for the routes
    const late = await Promise.all(PATHS.map(([path, key]) => get(booted.url, path, key)));
    expect(early).toEqual(late);
    expect(early.map((r) => r.status)).toEqual([200, 401, 401, 400, 404, 200]);
  } finally {
    await booted.close();
  }
}, 60_000);

it('a sandbox closed before its routes are loaded closes, and its `ready` fails', async () => {
  const booted = await bootSandbox({ port: 0, data: join(dir, 'closed.db'), quiet: true, clock, snapshot });
  await booted.close();
  await expect(booted.ready).rejects.toThrow(/closed before its routes were loaded/);
  await expect(fetch(`${booted.url}/_sandbox/health`)).rejects.toThrow();
  // The store it made is whole: the next start keeps it.
  const again = await startSandbox({ port: 0, data: join(dir, 'closed.db'), quiet: true, clock, snapshot });
  try {
    expect(again.world).toBe('kept');
    expect((await get(again.url, '/observe/campaigns?limit=1', DEMO_KEYS['acme-full'])).status).toBe(200);
  } finally {
    await again.close();
  }
}, 60_000);

it('a world that must be generated is loaded before listening: `ready` is already there', async () => {
  const booted = await bootSandbox({ port: 0, data: ':memory:', quiet: true, clock, snapshot: null });
  try {
    expect(booted.world).toBe('generated');
    let ready = false;
    void booted.ready.then(() => (ready = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(ready).toBe(true);
  } finally {
    await booted.close();
  }
}, 60_000);
