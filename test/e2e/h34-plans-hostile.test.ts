// `plans verify` and `plans pacing` against a service that breaks its contract
// (#34): a judgement ("in sync", a pace, in band) rests only on answers
// checked against the contract. What could not be checked is a row "not
// comparable: …" (a finding under --exit-code) or `unexpected_answer` (exit
// 1), never a crash, never silence, never exit 0. The CLI runs in process over
// stubs keyed by operation (each one must be used).
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/client/transport.js';
import { tempConfigDir } from '../helpers/cli.js';
import { HttpStubs, json } from '../helpers/http-stub.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { campaignRow } from '../helpers/contract-rows.js';

const ACC = 'acc_h34';
const cfg = tempConfigDir();
let http: HttpStubs;
afterEach(() => http.verify());

const cli = (args: readonly string[], transport: Transport = http) =>
  runAdopsInProcess(args, {
    env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: 'https://api.adops.test', ADOPS_API_KEY: 'acr_test_full_0001' },
    transport,
  });

/** A stand-in service answering GETs by path, each as often as asked (none of it has to be used). */
function answering(routes: Record<string, unknown>): Transport {
  return {
    async send(req) {
      const body = routes[new URL(req.path, req.origin).pathname];
      const text = JSON.stringify(body ?? { error: 'not_found', message: 'no such route' });
      return { status: body === undefined ? 404 : 200, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(text)]) };
    },
    async close() {},
  };
}

type Obj = Record<string, unknown>;
const execution = (entityType: string, entityId: string): Obj => ({
  executionId: `exe_${entityId}`,
  lineItemId: 'li_x',
  provider: 'provider_a',
  entityType,
  entityId,
  mutationId: null,
  recordedAt: 0,
});
/** A Line Item as the contract has it: daily 100, a flight around today (verify) or November 2026 (pacing). */
const lineItem = (id: string, over: Obj = {}): Obj => ({
  lineItemId: id,
  planSlug: 'p',
  name: `Line ${id}`,
  provider: 'provider_a',
  advertiserId: ACC,
  budget: 100,
  budgetType: 'daily',
  startDate: '2020-01-01',
  endDate: '2099-12-31',
  objective: null,
  lastValidation: null,
  executions: [],
  revision: 1,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});
const plan = (lineItems: Obj[], over: Obj = {}): Obj => ({
  slug: 'p',
  name: 'P',
  description: '',
  currency: 'USD',
  budget: null,
  startDate: null,
  endDate: null,
  status: 'approved',
  approvedAt: 0,
  archivedAt: null,
  revision: 2,
  createdAt: 0,
  updatedAt: 0,
  lineItems,
  ...over,
});
/** A live campaign row as the contract has it, matching lineItem(): ACTIVE, daily 100 USD. */
const campaign = (id: string, over: Obj = {}): Obj => campaignRow(ACC, id, { budget: 100, ...over });
const onPlan = (body: Obj) => http.on('GET', '/context/campaign-plans/p', json(200, body));
const onLive = (rows: unknown[]) => http.on('GET', `/observe/${ACC}/campaigns`, json(200, { data: rows }));

const rowsOf = (stdout: string): Obj[] => JSON.parse(stdout);

describe('plans verify judges only checked answers', () => {
  it('an execution type the contract does not name is a row "not comparable" for its Line Item, never "bug in adops"; the others are still checked', async () => {
    http = new HttpStubs();
    onPlan(plan([lineItem('li_odd', { executions: [execution('keyword', '9')] }), lineItem('li_ok', { executions: [execution('campaign', '1')] })]));
    onLive([campaign('1')]);
    const r = await cli(['plans', 'verify', 'p', '--exit-code', '-o', 'json']);
    expect(r.stderr).not.toMatch(/bug in adops/);
    expect(r.code, r.stderr).toBe(11);
    expect(rowsOf(r.stdout)).toEqual([
      {
        lineItemId: 'li_odd',
        entityType: null,
        entityId: null,
        field: 'plan',
        planned: null,
        live: null,
        note: expect.stringMatching(/^not comparable: .*executions\[0\]\.entityType: not one of campaign, ad_group, ad, creative, asset_group$/),
      },
    ]);
  });

  it.each([
    [
      'no status',
      (() => {
        const { status: _s, ...row } = campaign('1');
        return row;
      })(),
      /status: missing/,
    ],
    ['a budgetLevel outside its enum', campaign('1', { budgetLevel: 'account', budget: 55 }), /budgetLevel: not one of campaign, ad_group/],
    ['a budget sent as text', campaign('1', { budget: '100' }), /budget: must be a number or null/],
  ])('a live row with %s is "not comparable" (the field was never compared), never "in sync" with exit 0', async (_what, row, words) => {
    http = new HttpStubs();
    onPlan(plan([lineItem('li_1', { executions: [execution('campaign', '1')] })]));
    onLive([row]);
    const r = await cli(['plans', 'verify', 'p', '--exit-code', '-o', 'json']);
    expect(r.stderr).not.toContain('in sync');
    expect(r.code, r.stderr).toBe(11);
    const [only, ...more] = rowsOf(r.stdout);
    expect(more).toEqual([]);
    expect(only).toMatchObject({ lineItemId: 'li_1', entityType: 'campaign', entityId: '1', field: 'read' });
    expect(only!.note).toMatch(/^not comparable: the live row breaks the contract: /);
    expect(only!.note).toMatch(words);
  });

  it('two live rows answered for one id are "not comparable" (never silently the last); rows of ids not asked count for nothing', async () => {
    http = new HttpStubs();
    onPlan(plan([lineItem('li_1', { executions: [execution('campaign', '1')] })]));
    onLive([campaign('1', { status: 'PAUSED' }), campaign('99', { status: 'PAUSED' }), campaign('1')]);
    const r = await cli(['plans', 'verify', 'p', '--exit-code', '-o', 'json']);
    expect(r.code, r.stderr).toBe(11);
    expect(rowsOf(r.stdout)).toEqual([
      {
        lineItemId: 'li_1',
        entityType: 'campaign',
        entityId: '1',
        field: 'read',
        planned: null,
        live: null,
        note: 'not comparable: the live read answered 2 rows for this id',
      },
    ]);
  });

  it('a row whose id cannot be read is not the entity asked, and the entity it may be is "not comparable", not "missing"', async () => {
    http = new HttpStubs();
    onPlan(plan([lineItem('li_1', { executions: [execution('campaign', '1')] })]));
    onLive([campaign('1', { id: 1, status: 'PAUSED' })]);
    const r = await cli(['plans', 'verify', 'p', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(rowsOf(r.stdout)).toEqual([
      expect.objectContaining({ entityId: '1', field: 'read', note: 'not comparable: the live read answered 1 row(s) whose id cannot be read' }),
    ]);
  });

  it('a plan whose currency is blank compares no amount ("not comparable"), even with an advertiser as blank', async () => {
    http = new HttpStubs();
    onPlan(plan([lineItem('li_1', { executions: [execution('campaign', '1')] })], { currency: '' }));
    onLive([campaign('1', { currency: '' })]);
    const r = await cli(['plans', 'verify', 'p', '--exit-code', '-o', 'json']);
    expect(r.code, r.stderr).toBe(11);
    expect(rowsOf(r.stdout)).toEqual([expect.objectContaining({ field: 'budget', note: 'not comparable: the plan names no currency' })]);
  });

  it('a plan answer that breaks the contract outside its Line Items is unexpected_answer (exit 1): nothing is judged', async () => {
    http = new HttpStubs();
    const { currency: _c, ...noCurrency } = plan([lineItem('li_1', { executions: [execution('campaign', '1')] })]);
    onPlan(noCurrency);
    const r = await cli(['plans', 'verify', 'p', '--exit-code', '-o', 'json']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unexpected answer to GET /context/campaign-plans/{slug}: currency: missing');
    expect(r.stderr).not.toMatch(/bug in adops/);
  });

  it('a plan with no Line Item is not "in sync": stderr says nothing could be verified, and --exit-code exits 11', async () => {
    http = new HttpStubs();
    onPlan(plan([]));
    const r = await cli(['plans', 'verify', 'p', '--exit-code', '-o', 'json']);
    expect(r.code, r.stderr).toBe(11);
    expect(rowsOf(r.stdout)).toEqual([]);
    expect(r.stderr).toContain('no Line Item could be verified: plan p has none');
    expect(r.stderr).not.toContain('in sync');
  });

  it('control: checked answers that agree are "in sync", exit 0', async () => {
    http = new HttpStubs();
    onPlan(plan([lineItem('li_1', { executions: [execution('campaign', '1')] })]));
    onLive([campaign('1')]);
    const r = await cli(['plans', 'verify', 'p', '--exit-code', '-o', 'json']);
    expect([r.code, rowsOf(r.stdout)]).toEqual([0, []]);
    expect(r.stderr).toContain('plan p is in sync with what runs');
  });
});

// Pacing: a November 2026 flight, daily 100 USD, paced as of 2026-11-10 (10 days: 1000 expected). An honest
// answer of 5 days at 100 is 50 %, under the band: every test below adds rows a pace must not count.
const NOV = { startDate: '2026-11-01', endDate: '2026-11-30' };
const insight = (day: number, over: Obj = {}): Obj => ({
  dateStart: `2026-11-${String(day).padStart(2, '0')}`,
  dateStop: `2026-11-${String(day).padStart(2, '0')}`,
  level: 'campaign',
  advertiserId: ACC,
  provider: 'provider_a',
  entityType: 'campaign',
  entityId: '1',
  currency: 'USD',
  spend: 100,
  impressions: 1000,
  clicks: 10,
  reach: 900,
  conversions: 1,
  ...over,
});
const fiveDays = () => [1, 2, 3, 4, 5].map((d) => insight(d));
const onInsights = (rows: unknown[]) => http.on('GET', '/observe/insights', json(200, { data: rows }));
const PACING = ['plans', 'pacing', 'p', '--as-of', '2026-11-10', '--exit-code', '-o', 'json'];
const pacing = () => cli(PACING);
const pacingAgainst = (transport: Transport) => cli(PACING, transport);
const paced = (over: Obj = {}) => lineItem('li_1', { ...NOV, executions: [execution('campaign', '1')], ...over });

describe('plans pacing judges only checked answers', () => {
  it('control: an honest answer under the band is outside it, exit 11', async () => {
    http = new HttpStubs();
    onPlan(plan([paced()]));
    onInsights(fiveDays());
    const r = await pacing();
    expect(r.code, r.stderr).toBe(11);
    expect(rowsOf(r.stdout)[0]).toMatchObject({ spend: 500, expected: 1000, pace: 50, inBand: false, note: null });
  });

  it('a date that is not a calendar day (2026-11-1) in the plan is a row "not comparable", never "Invalid time value"', async () => {
    http = new HttpStubs();
    onPlan(plan([paced({ startDate: '2026-11-1' }), paced({ lineItemId: 'li_2', executions: [] })]));
    const r = await pacing();
    expect(r.stderr).not.toMatch(/Invalid time value|bug in adops/);
    expect(r.code, r.stderr).toBe(11);
    const [bad, idle] = rowsOf(r.stdout);
    expect(bad).toMatchObject({ lineItemId: 'li_1', name: 'Line li_1', spend: null, pace: null, inBand: null });
    expect(bad!.note).toMatch(/^not comparable: the plan's answer breaks the contract: .*startDate: must be a real calendar date YYYY-MM-DD/);
    expect(idle).toMatchObject({ lineItemId: 'li_2', note: 'not launched' });
    expect(r.stderr).toContain('no Line Item could be judged: 1 not comparable, 1 not launched');
  });

  it.each([
    [
      'a day that is not a calendar date (2026-11-1)',
      [1, 2, 3, 4, 5].map((d) => insight(d, { dateStart: `2026-11-${d}`, dateStop: `2026-11-${d}` })),
      /dateStart: must be a real calendar date/,
    ],
    ['days outside the range asked', [20, 21, 22, 23, 24].map((d) => insight(d)), /5 row\(s\) for days not asked/],
    ['a repeated entity and day', [1, 2, 3, 4, 5].map((d) => insight(d)), /5 repeated row\(s\) for one entity and day/],
    ['a level not asked', [6, 7, 8, 9, 10].map((d) => insight(d, { level: 'ad' })), /5 row\(s\) at a level not asked/],
    ['an entity not asked', [6, 7, 8, 9, 10].map((d) => insight(d, { entityId: '77' })), /5 row\(s\) of an entity not asked/],
    ['spend sent as text', [6, 7, 8, 9, 10].map((d) => insight(d, { spend: '100' })), /spend: must be a number or null/],
  ])(
    'Insights with %s: the Line Item is "not comparable", those rows never counted (an under-pacing Line Item never reads in band)',
    async (_what, extra, words) => {
      http = new HttpStubs();
      onPlan(plan([paced()]));
      onInsights([...fiveDays(), ...extra]);
      const r = await pacing();
      expect(r.stderr).not.toMatch(/Invalid time value|bug in adops/);
      expect(r.code, r.stderr).toBe(11);
      const [row] = rowsOf(r.stdout);
      expect(row).toMatchObject({ lineItemId: 'li_1', daysElapsed: 10, spend: null, expected: null, pace: null, inBand: null });
      expect(row!.note).toMatch(/^not comparable: Insights answered /);
      expect(row!.note).toMatch(words);
      expect(row!.note).toMatch(/\(never counted\)$/);
      expect(r.stderr).toContain('1 of 1 Line Items not comparable');
      expect(r.stderr).toContain('no Line Item could be judged: 1 not comparable');
    },
  );

  it.each([
    ['blank', ''],
    ['null', null],
  ])('neither the plan nor the spend in a currency (%s): never in band', async (_what, currency) => {
    // A stand-in service that answers the Insights too, whether they are asked or not.
    http = new HttpStubs();
    const r = await pacingAgainst(
      answering({
        '/context/campaign-plans/p': plan([paced()], { currency }),
        '/observe/insights': { data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((d) => insight(d, { currency })) },
      }),
    );
    if (currency === null) {
      // A plan whose currency breaks the contract is no plan to judge: unexpected_answer, exit 1.
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('unexpected answer to GET /context/campaign-plans/{slug}: currency: must be a string');
    } else {
      expect(r.code, r.stderr).toBe(11);
      expect(rowsOf(r.stdout)[0]).toMatchObject({ spend: null, pace: null, inBand: null, note: 'not comparable: the plan names no currency' });
    }
  });

  it('spend in no known currency against a plan in USD: "not comparable", never in band', async () => {
    http = new HttpStubs();
    onPlan(plan([paced()]));
    onInsights([...fiveDays(), ...[6, 7, 8, 9, 10].map((d) => insight(d, { currency: '' }))]);
    const r = await pacing();
    expect(r.code, r.stderr).toBe(11);
    expect(rowsOf(r.stdout)[0]).toMatchObject({
      pace: null,
      inBand: null,
      note: 'not comparable: spend in an unknown currency, the plan in USD (never converted)',
    });
  });

  it('a stored parent row that breaks the contract makes the Line Item "not comparable": its spend is never counted twice', async () => {
    http = new HttpStubs();
    onPlan(plan([paced({ executions: [execution('campaign', '1'), execution('ad_group', '11')] })]));
    http.on('GET', '/observe/ad-groups', json(200, { data: [{ id: '11' }] }));
    onInsights(fiveDays());
    onInsights([1, 2, 3, 4, 5].map((d) => insight(d, { level: 'ad_group', entityType: 'adset', entityId: '11' })));
    const r = await pacing();
    expect(r.code, r.stderr).toBe(11);
    const [row] = rowsOf(r.stdout);
    expect(row).toMatchObject({ pace: null, inBand: null });
    expect(row!.note).toMatch(/^not comparable: the stored ad groups answered 1 row\(s\) breaking the contract \(campaignId: missing\)/);
  });

  it('--exit-code never exits 0 when no Line Item could be judged; stderr says why', async () => {
    http = new HttpStubs();
    onPlan(plan([paced({ executions: [] }), paced({ lineItemId: 'li_2', startDate: '2026-12-01', endDate: '2026-12-31' })]));
    const r = await pacing();
    expect(r.code, r.stderr).toBe(11);
    expect(rowsOf(r.stdout).map((x) => x.note)).toEqual(['not launched', 'the flight has not started']);
    expect(r.stderr).toContain('no Line Item could be judged: 1 not launched, 1 not started');

    // Without --exit-code the rows are the answer: exit 0, the same words on stderr.
    http = new HttpStubs();
    onPlan(plan([paced({ executions: [] })]));
    const plain = await cli(['plans', 'pacing', 'p', '--as-of', '2026-11-10', '-o', 'json']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toContain('no Line Item could be judged: 1 not launched');
  });

  it('a Line Item judged in band beside one not launched: exit 0 (only what was judged is on pace, and it is)', async () => {
    http = new HttpStubs();
    onPlan(plan([paced(), paced({ lineItemId: 'li_2', executions: [] })]));
    onInsights([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((d) => insight(d)));
    const r = await pacing();
    expect(r.code, r.stderr).toBe(0);
    expect(rowsOf(r.stdout).map((x) => [x.lineItemId, x.pace, x.inBand])).toEqual([
      ['li_1', 100, true],
      ['li_2', null, null],
    ]);
    expect(r.stderr).not.toContain('could be judged');
  });
});
