// The one paginator against a service that breaks the page contract: a page
// is an object whose `data` is a list (an empty or garbled answer is not an
// empty list), a walk that makes no progress stops, and a flow's view is
// checked on every page (a row's problems fail the walk, or come with the page).
import { afterEach, describe, expect, it } from 'vitest';
import { UnexpectedAnswerError } from '../../../src/client/answer-check.js';
import { NoProgressError } from '../../../src/client/errors.js';
import { MAX_EMPTY_PAGES } from '../../../src/client/paginate.js';
import { HttpStubs, json, stubClient, type Responder } from '../../helpers/http-stub.js';
import { Readable } from 'node:stream';

let http: HttpStubs;
afterEach(() => http.verify());

const raw =
  (status: number, text: string): Responder =>
  () => ({ status, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(text)]) });

async function walk(opts: Parameters<ReturnType<typeof stubClient>['pages']>[2] = {}) {
  const client = stubClient(http);
  const pages = [];
  for await (const page of client.pages('listLiveAds', { params: { advertiserId: 'acc_1' }, query: {} }, opts)) pages.push(page);
  return pages;
}

const ad = (id: string, status: unknown = 'ACTIVE') => ({ id, status, advertiserId: 'acc_1' });

describe('every page is a page', () => {
  it.each([
    ['an empty 200', raw(200, ''), /the body is empty/],
    ['null', json(200, null), /the answer: must be an object/],
    ['a list', json(200, [ad('1')]), /the answer: must be an object/],
    ['no data', json(200, { rows: [] }), /data: missing/],
    ['data not a list', json(200, { data: { id: '1' } }), /data: not a list/],
    ['a numeric cursor', json(200, { data: [], nextCursor: 5 }), /nextCursor: not a string/],
  ])('%s: unexpected_answer naming the operation (not an empty list, exit 0)', async (_what, answer, problem) => {
    http = new HttpStubs().on('GET', '/observe/acc_1/ads', answer);
    const err = await walk().catch((e: unknown) => e);
    if (!(err instanceof UnexpectedAnswerError)) throw new Error(`not an unexpected answer: ${String(err)}`);
    expect(err.message).toMatch(/^unexpected answer to GET \/observe\/\{advertiserId\}\/ads: /);
    expect(err.message).toMatch(problem);
  });
});

describe('a walk that makes no progress stops', () => {
  it(`${MAX_EMPTY_PAGES} empty pages in a row, each with a new cursor: NoProgressError with the cursor to resume from`, async () => {
    http = new HttpStubs();
    for (let i = 0; i < MAX_EMPTY_PAGES; i++) http.on('GET', '/observe/acc_1/ads', json(200, { data: [], nextCursor: `c${i}` }));
    const err = await walk().catch((e: unknown) => e);
    if (!(err instanceof NoProgressError)) throw new Error(`not a walk without progress: ${String(err)}`);
    expect(err.code).toBe('no_progress');
    expect(Reflect.get(err, 'resumeCursor')).toBe(`c${MAX_EMPTY_PAGES - 2}`);
  });

  it('an empty page between full ones is progress (the count starts again)', async () => {
    http = new HttpStubs();
    for (let i = 0; i < MAX_EMPTY_PAGES - 1; i++) http.on('GET', '/observe/acc_1/ads', json(200, { data: [], nextCursor: `a${i}` }));
    http.on('GET', '/observe/acc_1/ads', json(200, { data: [ad('1')], nextCursor: 'b' }));
    for (let i = 0; i < MAX_EMPTY_PAGES - 1; i++) http.on('GET', '/observe/acc_1/ads', json(200, { data: [], nextCursor: `c${i}` }));
    http.on('GET', '/observe/acc_1/ads', json(200, { data: [] }));
    expect((await walk()).flatMap((p) => p.rows)).toHaveLength(1);
  });
});

describe('a flow’s view on every page', () => {
  it('a row that breaks what the flow reads fails the walk, naming the row and field', async () => {
    http = new HttpStubs().on('GET', '/observe/acc_1/ads', json(200, { data: [ad('1'), ad('2', 'RUNNING')] }));
    await expect(walk({ view: 'liveAdsVerified' })).rejects.toThrow(/data\[1\]\.status: not one of ACTIVE, PAUSED, DELETED, ARCHIVED/);
  });

  it('rowIssues: report: the page comes with each row’s problems, by index', async () => {
    http = new HttpStubs().on('GET', '/observe/acc_1/ads', json(200, { data: [ad('1'), { id: '2' }] }));
    const [page] = await walk({ view: 'liveAdsVerified', rowIssues: 'report' });
    expect(page!.rows).toHaveLength(2);
    expect([...page!.rowIssues!.entries()]).toEqual([[1, [{ pointer: '/status', text: 'is required' }]]]);
  });

  it('a row naming another advertiser than the one in the path is a row with a problem (never echoing it)', async () => {
    http = new HttpStubs().on('GET', '/observe/acc_1/ads', json(200, { data: [ad('1'), { ...ad('2'), advertiserId: 'acc_other' }] }));
    const [page] = await walk({ view: 'liveAdsVerified', rowIssues: 'report' });
    expect([...page!.rowIssues!.entries()]).toEqual([[1, [{ pointer: '/advertiserId', text: 'is not the advertiser asked for' }]]]);
  });

  it('a display reads tolerantly: the same rows pass without a view', async () => {
    http = new HttpStubs().on('GET', '/observe/acc_1/ads', json(200, { data: [ad('1'), { id: '2' }] }));
    expect((await walk()).flatMap((p) => p.rows)).toHaveLength(2);
  });
});
