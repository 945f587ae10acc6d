// The completion cache: fresh for 60 s, then still served (stale) for a week
// while a refresh renews it; a torn or foreign file is a miss, a held lock
// skips the write, a lock left by a killed run is broken; the refresh note
// keeps TABs in a row from starting a refresh each.
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDir, CACHE_TTL_MS, CompletionCache, REFRESH_RETRY_MS, SERVE_LIMIT_MS } from '../../../src/state/completion-cache.js';
import { tempDir } from '../../helpers/temp.js';

const fresh = () => tempDir('adops-cache-');

describe('completion cache', () => {
  it('fresh within 60 s, then stale but served, then gone after a week; names kept; scoped by profile and key without the key', () => {
    let now = 1_000_000;
    const dir = fresh();
    const cache = new CompletionCache(dir, () => now);
    expect(
      cache.write('brand', [
        { id: 'a', description: 'Brand A' },
        { id: 'b', description: '' },
      ]),
    ).toBe(true);
    const entries = [
      { id: 'a', description: 'Brand A' },
      { id: 'b', description: '' },
    ];
    expect(cache.read('brand')).toEqual({ entries, fresh: true });
    now += CACHE_TTL_MS - 1;
    expect(cache.read('brand')).toEqual({ entries, fresh: true });
    now += 2;
    expect(cache.read('brand')).toEqual({ entries, fresh: false });
    now += SERVE_LIMIT_MS;
    expect(cache.read('brand')).toBeUndefined();
    const one = cacheDir('/cfg', { profile: 'p', baseUrl: 'http://x', apiKey: 'acr_one' });
    const two = cacheDir('/cfg', { profile: 'p', baseUrl: 'http://x', apiKey: 'acr_two' });
    expect(one).not.toBe(two);
    expect(one).not.toContain('acr_');
  });

  it("reads an older adops's file (ids only)", () => {
    const dir = fresh();
    writeFileSync(join(dir, 'skill.json'), JSON.stringify({ at: Date.now(), values: ['s1', 2, 's2'] }));
    expect(new CompletionCache(dir).read('skill')?.entries).toEqual([
      { id: 's1', description: '' },
      { id: 's2', description: '' },
    ]);
  });

  it('a torn file is a miss; a held lock skips the write; a stale lock is broken', () => {
    const dir = fresh();
    const cache = new CompletionCache(dir);
    cache.write('asset', [{ id: 'x', description: '' }]);
    writeFileSync(join(dir, 'asset.json'), '{"at": 1, "val');
    expect(cache.read('asset')).toBeUndefined();
    writeFileSync(join(dir, 'asset.json.lock'), '');
    expect(cache.write('asset', [{ id: 'y', description: '' }])).toBe(false);
    const old = (Date.now() - 10_000) / 1000;
    utimesSync(join(dir, 'asset.json.lock'), old, old);
    expect(cache.write('asset', [{ id: 'y', description: '' }])).toBe(true);
    expect(cache.read('asset')?.entries).toEqual([{ id: 'y', description: '' }]);
    expect(readdirSync(dir)).toEqual(['asset.json']);
  });

  it('a refresh noted is not due again for the retry interval; a clock set back makes it due', () => {
    let now = 5_000_000;
    const cache = new CompletionCache(fresh(), () => now);
    expect(cache.refreshDue('advertiser')).toBe(true);
    expect(cache.noteRefresh('advertiser', 4242)).toBe(true);
    expect(cache.refreshNote('advertiser')).toEqual({ pid: 4242, at: now });
    expect(cache.refreshDue('advertiser')).toBe(false);
    expect(cache.refreshDue('brand')).toBe(true); // each kind its own
    now += REFRESH_RETRY_MS;
    expect(cache.refreshDue('advertiser')).toBe(true);
    now -= 60_000;
    expect(cache.refreshDue('advertiser')).toBe(true);
  });

  it('one refresh of a kind at a time (its own lock); a directory the disk refuses: no note, no lock', () => {
    const cache = new CompletionCache(fresh());
    const lock = cache.refreshLock('brand', 30_000);
    expect(lock).toBeDefined();
    expect(cache.refreshLock('brand', 30_000)).toBeUndefined();
    lock!.release();
    expect(cache.refreshLock('brand', 30_000)).toBeDefined();
    const file = join(fresh(), 'a-file');
    writeFileSync(file, '');
    const refused = new CompletionCache(join(file, 'cache'));
    expect(refused.noteRefresh('brand', 1)).toBe(false);
    expect(refused.refreshLock('brand', 30_000)).toBeUndefined();
    expect(refused.write('brand', [])).toBe(false);
  });
});
