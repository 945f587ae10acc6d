// The completion cache: fresh for 60 s, a torn or foreign file is a miss, a
// held lock skips the write, a lock left by a killed run is broken.
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDir, CACHE_TTL_MS, CompletionCache } from '../../../src/state/completion-cache.js';
import { tempDir } from '../../helpers/temp.js';

const fresh = () => tempDir('adops-cache-');

describe('completion cache', () => {
  it('answers within 60 s, then misses; scopes by profile and key without writing the key', () => {
    let now = 1_000_000;
    const dir = fresh();
    const cache = new CompletionCache(dir, () => now);
    expect(cache.write('brand', ['a', 'b'])).toBe(true);
    expect(cache.read('brand')).toEqual(['a', 'b']);
    now += CACHE_TTL_MS - 1;
    expect(cache.read('brand')).toEqual(['a', 'b']);
    now += 2;
    expect(cache.read('brand')).toBeUndefined();
    const one = cacheDir('/cfg', { profile: 'p', baseUrl: 'http://x', apiKey: 'acr_one' });
    const two = cacheDir('/cfg', { profile: 'p', baseUrl: 'http://x', apiKey: 'acr_two' });
    expect(one).not.toBe(two);
    expect(one).not.toContain('acr_');
  });

  it('a torn file is a miss; a held lock skips the write; a stale lock is broken', () => {
    const dir = fresh();
    const cache = new CompletionCache(dir);
    cache.write('asset', ['x']);
    writeFileSync(join(dir, 'asset.json'), '{"at": 1, "val');
    expect(cache.read('asset')).toBeUndefined();
    writeFileSync(join(dir, 'asset.json.lock'), '');
    expect(cache.write('asset', ['y'])).toBe(false);
    const old = (Date.now() - 10_000) / 1000;
    utimesSync(join(dir, 'asset.json.lock'), old, old);
    expect(cache.write('asset', ['y'])).toBe(true);
    expect(cache.read('asset')).toEqual(['y']);
    expect(readdirSync(dir)).toEqual(['asset.json']);
  });
});
