// What a person sees on a terminal (table) against what a script reads (json,
// ndjson, csv) for the same rows: formatted values for people, raw for scripts.
import { describe, expect, it } from 'vitest';
import { formatMoney, formatTime } from '../../../../src/cli/output/values.js';
import { list, object } from './helpers.js';

const T = Date.UTC(2026, 10, 23, 19, 35); // 2026-11-23 19:35 UTC
const campaign = {
  advertiserId: 'acc_1',
  id: 'c1',
  name: 'Spring',
  path: 'c1',
  provider: 'provider_a',
  type: 'campaign',
  status: 'ACTIVE',
  currency: 'EUR',
  createdAt: T,
  updatedAt: T,
  deletedAt: null,
  createdTime: null,
  updatedTime: null,
  budget: 1250,
  budgetLevel: 'campaign',
  budgetType: 'daily',
  bidStrategy: null,
  objective: 'SALES',
  adsetBudgetSharing: null,
};
const page = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ ...campaign, id: `c${from + i}`, budget: 1_234_567 + i }));

describe('values for people', () => {
  it('times read as dates in the chosen zone, money carries its currency and decimals', () => {
    expect(formatTime(T, { timeZone: 'UTC' })).toBe('2026-11-23 19:35');
    expect(formatTime(T, { timeZone: 'Asia/Tokyo' })).toBe('2026-11-24 04:35');
    expect(formatMoney(1250, 'EUR')).toBe('1,250.00 EUR');
    expect(formatMoney(1250, 'JPY')).toBe('1,250 JPY');
    expect(formatMoney(0.125, 'XXQ')).toBe('0.13 XXQ');
  });

  it('a table shows dates, grouped right-aligned money; json keeps the raw values', async () => {
    const table = await list([[campaign]], { tty: true, resource: 'campaign' });
    expect(table).toContain('2026-11-23 19:35');
    expect(table).toMatch(/│ 1,250\.00 EUR │/);
    expect(table).not.toContain(String(T));
    const json = JSON.parse(await list([[campaign]], { tty: false, resource: 'campaign' }));
    expect(json[0]).toEqual(campaign);
    const csv = await list([[campaign]], { tty: false, format: 'csv', resource: 'campaign' });
    expect(csv.split('\n')[1]).toContain(`1250,EUR,daily,SALES,${T}`);
  });

  it('a table has a rule under its header even without colour, and none between rows', async () => {
    const lines = (await list([page(3)], { tty: true, resource: 'campaign' })).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^┌─+┬/);
    expect(lines[1]).toMatch(/^│ id/);
    expect(lines[2]).toMatch(/^├─+┼.*┤$/);
    expect(lines.slice(3, 6).every((l) => l.startsWith('│ c'))).toBe(true);
    expect(lines[6]).toMatch(/^└/);
    // Numbers right-aligned and grouped.
    expect(lines[3]).toMatch(/│ +1,234,567\.00 EUR │/);
  });

  it('--all across pages is ONE table on a terminal; ndjson still streams page by page', async () => {
    const table = await list([page(2, 0), page(2, 2), page(1, 4)], { tty: true, resource: 'campaign' });
    expect(table.match(/┌/g)).toHaveLength(1);
    expect(table.match(/│ c\d/g)).toHaveLength(5);
    const ndjson = await list([page(2, 0), page(2, 2)], { tty: false, format: 'ndjson', resource: 'campaign' });
    expect(
      ndjson
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(['c0', 'c1', 'c2', 'c3']);
  });

  it('fits the terminal: long cells cut with …, the least wanted default columns left out', async () => {
    const wide = { ...campaign, name: 'A campaign name far longer than any terminal column should have to hold' };
    const text = await list([[wide]], { tty: true, resource: 'campaign', width: 80 });
    for (const line of text.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(text).toMatch(/│ A campaign name[^│]*… │/);
    expect(text).toMatch(/│ id │ name +│ provider +│ status │ advertiserId │ budget +│\n/);
    // Columns the user named are all kept, squeezed.
    const named = await list([[wide]], {
      tty: true,
      resource: 'campaign',
      width: 80,
      fields: ['id', 'name', 'provider', 'status', 'advertiserId', 'budget', 'objective', 'updatedAt'],
    });
    expect(named.split('\n')[1]!.split('│')).toHaveLength(10);
    for (const line of named.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('a known width keeps the most important columns (Insights: entity and metrics), never cuts ids, and says what it hid', async () => {
    const row = {
      dateStart: '2026-09-01',
      dateStop: '2026-09-30',
      level: 'campaign',
      advertiserId: 'acc_acme_b_disconnected',
      provider: 'provider_b',
      entityType: 'campaign',
      entityId: '120212345678901234567',
      currency: 'EUR',
      spend: 17323,
      impressions: 2479174,
      clicks: 48958,
      reach: 1811696,
      conversions: 1944,
    };
    const notes: string[] = [];
    const text = await list([[row]], { tty: true, resource: 'insight', width: 80, note: (m) => notes.push(m) });
    const head = text
      .split('\n')[1]!
      .split('│')
      .map((c) => c.trim())
      .filter(Boolean);
    expect(head.slice(0, 3)).toEqual(['entityId', 'spend', 'impressions']);
    expect(text).toContain('120212345678901234567');
    for (const line of text.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^\d columns hidden to fit 80 columns: .*dateStop.*; choose the columns with --fields \(e\.g\. --fields entityId,/);
    // Named columns too narrow for the width: squeezed, the id still whole, the cut said.
    const named: string[] = [];
    const squeezed = await list([[{ ...row, entityType: 'a very long entity type text' }]], {
      tty: true,
      resource: 'insight',
      width: 40,
      fields: ['entityId', 'entityType', 'advertiserId'],
      note: (m) => named.push(m),
    });
    expect(squeezed).toContain('120212345678901234567');
    expect(squeezed).toContain('acc_acme_b_disconnected');
    expect(named).toEqual(['some cells were shortened to fit (…); --output json or csv shows them whole']);
  });

  it('an unknown width (a pipe, a pty of 0 columns) cuts nothing and hides nothing', async () => {
    const long = { ...campaign, name: 'A campaign name far longer than any terminal column should have to hold, and then some more words' };
    const notes: string[] = [];
    const text = await list([[long]], { tty: true, resource: 'campaign', width: undefined, note: (m) => notes.push(m) });
    expect(text).toContain(long.name);
    expect(text).not.toContain('…');
    expect(text.split('\n')[1]).toMatch(/│ updatedAt +│$/);
    expect(notes).toEqual([]);
    const view = await object({ id: 'ast_1', description: 'word '.repeat(200).trim() }, { tty: true, width: 0 });
    expect(view).toContain('word '.repeat(199) + 'word');
  });

  it('drops default columns empty in every row (an Insights breakdown has no entityId)', async () => {
    const rows = [
      {
        dateStart: '2026-09-01',
        dateStop: '2026-09-01',
        level: 'advertiser',
        advertiserId: null,
        provider: 'provider_a',
        entityType: null,
        entityId: null,
        currency: 'EUR',
        spend: 10.5,
        impressions: 1000,
        clicks: 3,
        reach: 900,
        conversions: 1,
      },
    ];
    const table = await list([rows], { tty: true, resource: 'insight' });
    expect(table).not.toContain('entityId');
    expect(table).toMatch(/│ +10\.50 EUR │ +1,000 │/);
  });

  it('unknown fields and odd values never break a table and survive in json', async () => {
    const row = { ...campaign, updatedAt: 1e20, createdAt: 42, shinyNew: { deep: [1, 2] } };
    expect(await object(row, { tty: true })).toMatch(/│ updatedAt +│ 100,000,000,000,000,000,000 │/);
    const table = await list([[row]], { tty: true, resource: 'campaign' });
    expect(table).toContain('Spring');
    expect(JSON.parse(await list([[row]], { tty: false, resource: 'campaign' }))[0].shinyNew).toEqual({ deep: [1, 2] });
  });
});

describe('one object on a terminal', () => {
  const asset = {
    id: 'ast_1',
    filename: 'hero.jpg',
    state: 'ready',
    sizeBytes: 2_048_000,
    revision: 2,
    createdAt: T,
    registrations: [{ id: 'areg_1', advertiserId: 'acc_1', provider: 'provider_a' }],
    extra: { nested: { deeper: 'yes' } },
    description: 'word '.repeat(200),
  };

  it('is a key/value view with dotted keys that fits the terminal width', async () => {
    const text = await object(asset, { tty: true, resource: 'asset', width: 72 });
    expect(text).toMatch(/│ state +│ ready +│/);
    expect(text).toMatch(/│ extra\.nested\.deeper +│ yes/);
    expect(text).toMatch(/│ registrations\.0\.advertiserId +│ acc_1/);
    expect(text).toMatch(/│ sizeBytes +│ 2,048,000 +│/);
    expect(text).toContain('2026-11-23 19:35');
    for (const line of text.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(72);
    // A long value wraps over a few lines and is cut, not printed whole.
    expect(text.split('\n').filter((l) => l.includes('word')).length).toBeGreaterThan(1);
    expect(text.split('\n').length).toBeLessThan(30);
    expect(text).toContain('…');
  });

  it('short values make a narrow view, not one stretched to the terminal', async () => {
    const text = await object({ id: 'ast_1', state: 'ready' }, { tty: true, width: 120 });
    expect(text.split('\n')[1]).toBe('│ id    │ ast_1 │');
  });

  it('json keeps the object whole and raw', async () => {
    expect(JSON.parse(await object(asset, { tty: false, resource: 'asset' }))).toEqual(asset);
  });
});

describe('rows without a resource view (a live payload, a --query result)', () => {
  const wide = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field${i}`, `value${i}`]));
  it('CSV keeps every key; a table of unknown width shows every one', async () => {
    const csv = await list([[wide]], { tty: false, format: 'csv' });
    expect(csv.split('\n')[0]).toBe(Object.keys(wide).join(','));
    const table = await list([[wide]], { tty: true, width: undefined });
    expect(table).toContain('field11');
    const queried = await list([[wide]], { tty: false, format: 'csv', query: '[].{a: field0, b: field11}' });
    expect(queried).toBe('a,b\nvalue0,value11\n');
  });
});
