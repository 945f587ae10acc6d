// The paginator and the waiter over the stub transport.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/client/http.js';
import { RepeatedCursorError } from '../../../src/client/errors.js';
import { paginate } from '../../../src/client/paginate.js';
import { waitFor, type Acceptor } from '../../../src/client/waiter.js';
import { HttpStubs, json, stubClient } from '../../helpers/http-stub.js';

let http: HttpStubs;
function client() {
  http = new HttpStubs();
  return stubClient(http);
}
afterEach(() => http.verify());

const page = (ids: string[], next?: string) => json(200, { data: ids.map((id) => ({ id })), ...(next ? { nextCursor: next } : {}) });
async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('paginate', () => {
  it('follows nextCursor to the end, one page at a time', async () => {
    const c = client();
    http.on('GET', '/assets', page(['a', 'b'], 'c1')).on('GET', /cursor=c1/, page(['c']));
    const pages = await collect(paginate(c, { method: 'GET', path: '/assets' }, { pageSize: 2 }));
    expect(pages.map((p) => p.rows.map((r) => (r as { id: string }).id))).toEqual([['a', 'b'], ['c']]);
    expect(pages.map((p) => p.cursor)).toEqual([undefined, 'c1']);
    expect(http.requests[0]!.path).toBe('/assets?limit=2');
  });

  it('asks for no more than remain under max, so the next cursor resumes exactly', async () => {
    const c = client();
    http.on('GET', '/assets', page(['a', 'b'], 'c1')).on('GET', /cursor=c1&limit=1/, page(['c'], 'c2'));
    const pages = await collect(paginate(c, { method: 'GET', path: '/assets' }, { pageSize: 2, max: 3 }));
    expect(pages.at(-1)).toMatchObject({ rowsSoFar: 3, nextCursor: 'c2' });
  });

  it('stops with an error when the service repeats a cursor', async () => {
    const c = client();
    http.on('GET', '/assets', page(['a'], 'c1')).on('GET', /cursor=c1/, page(['b'], 'c1'));
    await expect(collect(paginate(c, { method: 'GET', path: '/assets' }))).rejects.toBeInstanceOf(RepeatedCursorError);
  });

  it('tags a failure after the first page with the cursor to resume from', async () => {
    const c = client();
    http.on('GET', '/assets', page(['a'], 'c1'));
    for (let i = 0; i < 4; i++) http.on('GET', /cursor=c1/, json(503, { error: 'unavailable', message: 'busy' }));
    const err = await collect(paginate(c, { method: 'GET', path: '/assets' })).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 503, resumeCursor: 'c1' });
  });

  it('checks Ctrl-C before each page', async () => {
    const c = client();
    const ac = new AbortController();
    http.on('GET', '/assets', page(['a'], 'c1'));
    const it = paginate(c, { method: 'GET', path: '/assets' }, { signal: ac.signal });
    await it.next();
    ac.abort(new Error('stop'));
    await expect(it.next()).rejects.toThrow('stop');
    expect(http.requests).toHaveLength(1);
  });
});

describe('waiter', () => {
  const get = (c: ApiClient, path: string) => async (signal: AbortSignal) => (await c.request({ method: 'GET', path, signal })).body;
  const acceptors: Acceptor[] = [
    { state: 'success', matcher: 'path', path: 'state', expected: ['ready', 'done'] },
    { state: 'failure', matcher: 'path', path: 'state', expected: 'failed' },
    { state: 'retry', matcher: 'error', expected: 'not_found' },
    { state: 'failure', matcher: 'status', expected: 410 },
  ];
  const clock = () => {
    let t = 0;
    return { now: () => t, sleep: async (ms: number) => void (t += ms) };
  };

  it('polls until an acceptor says success, retrying on a matched error code', async () => {
    const c = client();
    http.on('GET', '/assets/a1', json(404, { error: 'not_found', message: 'not yet' }));
    http.on('GET', '/assets/a1', json(200, { state: 'pending' }));
    http.on('GET', '/assets/a1', json(200, { state: 'READY' }));
    const r = await waitFor(get(c, '/assets/a1'), { acceptors, timeoutMs: 10_000, intervalMs: 1000, ...clock() });
    expect(r).toMatchObject({ outcome: 'success', value: { state: 'READY' } });
  });

  it('ends in failure by path or status, and in timeout when nothing decides', async () => {
    const c = client();
    http.on('GET', '/m/1', json(200, { state: 'failed' }));
    expect((await waitFor(get(c, '/m/1'), { acceptors, timeoutMs: 1, intervalMs: 1, ...clock() })).outcome).toBe('failure');
    http.on('GET', '/m/2', json(410, { error: 'gone', message: 'gone' }));
    expect((await waitFor(get(c, '/m/2'), { acceptors, timeoutMs: 1, intervalMs: 1, ...clock() })).outcome).toBe('failure');
    for (let i = 0; i < 3; i++) http.on('GET', '/m/3', json(200, { state: 'running' }));
    expect((await waitFor(get(c, '/m/3'), { acceptors, timeoutMs: 2000, intervalMs: 1000, ...clock() })).outcome).toBe('timeout');
  });

  it('throws an error no acceptor names', async () => {
    const c = client();
    http.on('GET', '/m/4', json(403, { error: 'forbidden', message: 'no' }));
    await expect(waitFor(get(c, '/m/4'), { acceptors, timeoutMs: 1, intervalMs: 1, ...clock() })).rejects.toMatchObject({ code: 'forbidden' });
  });
});
