// The typed client surface: client.call(id, input) and client.pages(id, input)
// over the stub transport. Method and path come from the operation table, the
// path filled and percent-encoded; pages go through the one paginator. The
// `@ts-expect-error` lines below prove that a wrong id or a missing required
// input does not compile: `npm run lint` type-checks this file with test/'s
// program (scripts/lint-typed.mjs, as `tsc -p test` does), and a directive that
// no longer meets an error is itself an error there (TS2578). This file used to
// build its own program for that at every test run (~8 s of CPU); lint's check is
// the same options and the same rule.
import { afterEach, describe, expect, it } from 'vitest';
import { RepeatedCursorError } from '../../../src/client/errors.js';
import { HttpStubs, json, stubClient } from '../../helpers/http-stub.js';

let http: HttpStubs;
function client() {
  http = new HttpStubs();
  return stubClient(http);
}
afterEach(() => http.verify());

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('client.call', () => {
  it('sends the method and filled path of the table, the query, the JSON body and the headers; answers the typed body', async () => {
    const c = client();
    http.on('PATCH', '/assets/a%2F1', json(200, { id: 'a/1', filename: 'new.png', revision: 3 }));
    const asset = await c.call('renameAsset', { params: { id: 'a/1' }, body: { filename: 'new.png', revision: 2 } });
    expect(asset.id).toBe('a/1');
    expect(JSON.parse(http.requests[0]!.body)).toEqual({ filename: 'new.png', revision: 2 });
    expect(http.requests[0]!.headers['content-type']).toBe('application/json');

    http.on('GET', '/observe/campaigns', json(200, { data: [] }));
    await c.call('listCampaigns', { query: { limit: '5', ids: 'c1,c2' } });
    expect(http.requests[1]!.path).toBe('/observe/campaigns?limit=5&ids=c1%2Cc2');

    http.on('POST', '/mutations', json(202, { id: 'mut_1', state: 'pending' }));
    await c.call('createMutation', {
      headers: { 'idempotency-key': 'k-1' },
      body: { advertiserId: 'acc_1', action: 'pause', target: { type: 'campaign', id: 'c1' } },
    });
    expect(http.requests[2]!.headers['idempotency-key']).toBe('k-1');
  });

  it('a dot-segment id stays one literal segment', async () => {
    const c = client();
    http.on('GET', '/assets/%2E%2E', json(200, { id: '..' }));
    await c.call('getAsset', { params: { id: '..' } });
    expect(http.requests[0]!.path).toBe('/assets/%2E%2E');
  });

  it('passes the signal and per-call retry changes on', async () => {
    const c = client();
    http.on('GET', '/assets/a1', json(503, { error: 'unavailable', message: 'busy' }));
    await expect(c.call('getAsset', { params: { id: 'a1' } }, { retry: { maxAttempts: 1 } })).rejects.toMatchObject({ status: 503 });
    expect(http.requests).toHaveLength(1);
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await expect(c.call('getAsset', { params: { id: 'a1' } }, { signal: ac.signal })).rejects.toThrow('stop');
    expect(http.requests).toHaveLength(1);
  });

  it('wrong ids and missing required input are compile errors', () => {
    const c = client();
    const never = () => {
      // @ts-expect-error: no operation has this id
      void c.call('getAssett', { params: { id: 'a1' } });
      // @ts-expect-error: getAsset needs its path params
      void c.call('getAsset', {});
      // @ts-expect-error: only list operations have pages
      void c.pages('getAsset', { params: { id: 'a1' } });
    };
    expect(typeof never).toBe('function');
  });
});

describe('client.pages', () => {
  const page = (ids: string[], next?: string) => json(200, { data: ids.map((id) => ({ id, filename: `${id}.png` })), ...(next ? { nextCursor: next } : {}) });

  it('follows nextCursor through the one paginator, rows typed from the response schema', async () => {
    const c = client();
    http.on('GET', '/assets', page(['a', 'b'], 'c1')).on('GET', /cursor=c1/, page(['c']));
    const pages = await collect(c.pages('listAssets', { query: { state: 'ready' } }, { pageSize: 2 }));
    expect(pages.map((p) => p.rows.map((r) => r.filename))).toEqual([['a.png', 'b.png'], ['c.png']]);
    expect(http.requests[0]!.path).toBe('/assets?state=ready&limit=2');
    expect(http.requests[1]!.path).toBe('/assets?state=ready&cursor=c1&limit=2');
  });

  it('stops on a repeated cursor instead of looping', async () => {
    const c = client();
    http
      .on('GET', '/assets', page(['a'], 'c1'))
      .on('GET', /cursor=c1/, page(['b'], 'c2'))
      .on('GET', /cursor=c2/, page(['c'], 'c1'));
    await expect(collect(c.pages('listAssets', {}))).rejects.toBeInstanceOf(RepeatedCursorError);
    expect(http.requests).toHaveLength(3);
  });

  it('resumes from a cursor and stops at max rows', async () => {
    const c = client();
    http.on('GET', /cursor=r1&limit=2/, page(['x', 'y'], 'r2'));
    const pages = await collect(c.pages('listAssets', {}, { cursor: 'r1', max: 2 }));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ cursor: 'r1', nextCursor: 'r2', rowsSoFar: 2 });
  });

  it('Ctrl-C between pages sends nothing more', async () => {
    const c = client();
    const ac = new AbortController();
    http.on('GET', '/assets', page(['a'], 'c1'));
    const it = c.pages('listAssets', {}, { signal: ac.signal });
    await it.next();
    ac.abort(new Error('stop'));
    await expect(it.next()).rejects.toThrow('stop');
    expect(http.requests).toHaveLength(1);
  });
});
