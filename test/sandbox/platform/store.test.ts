// Store: state survives restarts (the world is loaded only into a new or reset store),
// migrations are recorded once, and the cursor secret is stable across restarts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDataPath, startSandbox } from '../../../src/sandbox/index.js';
import type { StartOptions } from '../../../src/sandbox/index.js';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import { MIGRATIONS } from '../../../src/sandbox/store/migrations.js';
import { minimalWorld, request, withAdvertiser, withKey } from '../../helpers/sandbox.js';
import { held, registerProbeRoutes } from './probe-routes.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('adops-store-test-');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const start = (data: string, extra: Partial<StartOptions> = {}) =>
  startSandbox({ host: '127.0.0.1', port: 0, data, quiet: true, extraRoutes: registerProbeRoutes, world: minimalWorld(), ...extra });

const ids = (body: { data: Array<{ id: string }> }) => body.data.map((r) => r.id);

describe('persistence', () => {
  it('rows written in one run are there in the next; the world is not reloaded; cursors stay valid', async () => {
    const data = join(dir, 'nested', 'sandbox.db');
    const worldA = withAdvertiser(withAdvertiser(minimalWorld(), { id: 'acc_a1' }), { id: 'acc_a2' });
    const first = await start(data, { world: worldA });
    const key = first.keys.find((k) => k.label === 'full')!.key;
    first.services.db
      .prepare(
        `INSERT INTO advertisers (id, org_id, provider, name, currency, connection) VALUES ('acc_written', 'org_test', 'provider_b', 'w', NULL, 'connected')`,
      )
      .run();
    const page1 = await request(first.url, 'GET', '/_probe/observe/campaigns', { key, query: { limit: 1 } });
    expect(ids(page1.body)).toEqual(['acc_written']);
    await first.close();

    // Another world is given, but the store already holds one: it is kept.
    const worldB = withKey(minimalWorld(), { label: 'b-only', key: 'acr_test_b_only_0001' });
    const second = await start(data, { world: worldB });
    try {
      expect(second.keys.map((k) => k.label)).toEqual(['full']);
      const page2 = await request(second.url, 'GET', '/_probe/observe/campaigns', { key, query: { limit: 1, cursor: page1.body.nextCursor } });
      expect(page2.status).toBe(200);
      expect(ids(page2.body)).toEqual(['acc_a2']);
    } finally {
      await second.close();
    }
  });

  it('reset deletes the store and loads the given world', async () => {
    const data = join(dir, 'sandbox.db');
    await (await start(data, { world: withAdvertiser(minimalWorld(), { id: 'acc_old' }) })).close();
    const again = await start(data, { reset: true, world: withKey(minimalWorld(), { label: 'fresh', key: 'acr_test_fresh_0001' }) });
    try {
      expect(again.keys.map((k) => k.label)).toEqual(['full', 'fresh']);
      const res = await request(again.url, 'GET', '/_probe/observe/campaigns', { key: 'acr_test_fresh_0001' });
      expect(res.body.data).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it(':memory: keeps nothing and leaves no files', async () => {
    const sb = await start(':memory:');
    const files = sb.services.filesDir;
    expect(sb.services.dataDir).toBeNull();
    expect(existsSync(files)).toBe(true);
    await sb.close();
    expect(existsSync(files)).toBe(false);
  });

  it('close() lets a request in flight finish, then closes its connection and the store at once (not at the end of the grace)', async () => {
    const sb = await start(':memory:');
    const key = sb.keys[0]!.key;
    const inflight = request(sb.url, 'GET', '/_probe/observe/acc_1/campaigns/300', { key });
    await held.arrived();
    const closing = sb.close();
    expect(sb.services.db.open).toBe(true); // still serving the request in flight
    held.release();
    const res = await inflight;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ waited: 300 });
    const answered = Date.now();
    await closing;
    // The keep-alive connection the answer left idle was closed with it: close() did not wait for the client to drop it (3 s) or for its 5 s grace.
    expect(Date.now() - answered).toBeLessThan(1500);
    expect(sb.services.db.open).toBe(false);
    await expect(request(sb.url, 'GET', '/_sandbox/health')).rejects.toThrow();
  });

  it('a port in use fails the start and releases the store', async () => {
    const first = await start(':memory:');
    const data = join(dir, 'second.db');
    try {
      await expect(start(data, { port: first.port })).rejects.toThrow(/EADDRINUSE/);
      // The store is closed again: it can be opened and removed at once.
      const db = openDatabase(data);
      db.close();
    } finally {
      await first.close();
    }
  });

  it('the ticker of a serving sandbox runs until close, and close stops it', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const sb = await start(':memory:', { ticker: true });
    expect(timers()).toBe(before + 1);
    await sb.close();
    expect(timers()).toBe(before);
  });
});

describe('defaultDataPath', () => {
  it('is ADOPS_SANDBOX_DATA when set, else sandbox.db in the user data directory', () => {
    expect(defaultDataPath({ ADOPS_SANDBOX_DATA: '/tmp/x/my.db' })).toBe('/tmp/x/my.db');
    expect(defaultDataPath({})).toMatch(/adops[^/]*\/sandbox\.db$/);
  });
});

describe('openDatabase', () => {
  it('applies every migration once and records it; reopening applies none', () => {
    const path = join(dir, 'm.db');
    const db = openDatabase(path);
    const names = db.prepare('SELECT name FROM migrations ORDER BY name').pluck().all();
    expect(names).toEqual(MIGRATIONS.map((m) => m.name));
    expect(db.prepare('PRAGMA journal_mode').pluck().get()).toBe('wal');
    expect(db.prepare('PRAGMA foreign_keys').pluck().get()).toBe(1);
    db.close();
    const again = openDatabase(path);
    expect(again.prepare('SELECT count(*) FROM migrations').pluck().get()).toBe(MIGRATIONS.length);
    again.close();
  });

  it('a failing migration leaves nothing of itself behind (transaction)', () => {
    const path = join(dir, 'broken.db');
    const broken = [...MIGRATIONS, { name: '999_broken', sql: 'CREATE TABLE half_made (x INTEGER); THIS IS NOT SQL;' }];
    expect(() => openDatabase(path, broken)).toThrow();
    const db = openDatabase(path);
    expect(db.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'half_made'`).pluck().get()).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM migrations WHERE name = '999_broken'`).pluck().get()).toBe(0);
    db.close();
  });

  it('foreign keys hold: a key of an unknown member is refused', () => {
    const db = openDatabase(':memory:');
    expect(() =>
      db
        .prepare(
          `INSERT INTO api_keys (id, key, member_id, permissions, state, label, description, seq) VALUES ('k', 'acr_x', 'nobody', '"all"', 'active', 'l', '', 1)`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.close();
  });
});
