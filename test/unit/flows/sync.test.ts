// `assets sync` lists every ready Asset through the one paginator: all pages,
// grouped by filename, and a cursor the service repeats stops the listing
// (it used to follow nextCursor itself, with no guard: a loop forever).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RepeatedCursorError } from '../../../src/client/errors.js';
import { hashAhead, readyAssetsByName } from '../../../src/flows/sync.js';
import type { LocalFile } from '../../../src/flows/upload.js';
import { tempDir } from '../../helpers/temp.js';
import { HttpStubs, json, stubClient } from '../../helpers/http-stub.js';

let http: HttpStubs;
function client() {
  http = new HttpStubs();
  return stubClient(http);
}
afterEach(() => http.verify());

const asset = (id: string, filename: string, state = 'ready') => ({ id, filename, state, sizeBytes: 10 });

describe('readyAssetsByName', () => {
  it('reads every page of ready Assets and groups them by filename', async () => {
    const c = client();
    http.on('GET', '/assets', json(200, { data: [asset('a1', 'x.png'), asset('a2', 'y.png')], nextCursor: 'c1' }));
    http.on('GET', /cursor=c1/, json(200, { data: [asset('a3', 'x.png'), asset('a4', 'z.png', 'reserved')] }));
    const byName = await readyAssetsByName(c);
    expect([...byName.keys()].sort()).toEqual(['x.png', 'y.png']);
    expect(byName.get('x.png')!.map((r) => r.id)).toEqual(['a1', 'a3']);
    expect(http.requests[0]!.path).toBe('/assets?state=ready&limit=100');
  });

  it('stops with an error when the service repeats a cursor, instead of paging forever', async () => {
    const c = client();
    http.on('GET', '/assets', json(200, { data: [asset('a1', 'x.png')], nextCursor: 'c1' }));
    http.on('GET', /cursor=c1/, json(200, { data: [asset('a2', 'y.png')], nextCursor: 'c1' }));
    await expect(readyAssetsByName(c)).rejects.toBeInstanceOf(RepeatedCursorError);
    expect(http.requests).toHaveLength(2);
  });
});

describe('hashAhead (#27: the files are hashed while the listing is on its way)', () => {
  it('hashes every file; one it cannot read is left for findExisting to fail on; stop() starts no more', async () => {
    const dir = tempDir('adops-sync-');
    const files = ['a.png', 'b.png', 'gone.png', 'c.png'].map((name, i): LocalFile => {
      const path = join(dir, name);
      if (name !== 'gone.png') writeFileSync(path, `bytes ${i}`);
      return { path, shown: name, filename: name, size: name === 'gone.png' ? 3 : `bytes ${i}`.length, mtimeMs: 0 };
    });
    await hashAhead(files).done;
    expect(files.map((f) => f.sha256)).toEqual([
      createHash('sha256').update('bytes 0').digest('hex'),
      createHash('sha256').update('bytes 1').digest('hex'),
      undefined,
      createHash('sha256').update('bytes 3').digest('hex'),
    ]);
    const again = files.map(({ path, shown, filename, size, mtimeMs }): LocalFile => ({ path, shown, filename, size, mtimeMs }));
    const h = hashAhead(again);
    h.stop();
    await h.done;
    expect(again.every((f) => f.sha256 === undefined)).toBe(true);
  });
});
