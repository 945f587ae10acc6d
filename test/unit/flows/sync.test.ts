// `assets sync` lists every ready Asset through the one paginator: all pages,
// grouped by filename, and a cursor the service repeats stops the listing
// (it used to follow nextCursor itself, with no guard: a loop forever).
import { afterEach, describe, expect, it } from 'vitest';
import { RepeatedCursorError } from '../../../src/client/errors.js';
import { readyAssetsByName } from '../../../src/flows/sync.js';
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
