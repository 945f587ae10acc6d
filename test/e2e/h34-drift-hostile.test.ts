// `observe drift` against a service that breaks its contract (#34): "in sync"
// (exit 0 under --exit-code) rests only on rows checked against the contract.
// A compared field a row breaks is a row saying "not comparable: …" on that
// side, never a value read as null; two rows of one id in one answer, or a row
// whose id or provider cannot be read, is a row saying so. The CLI runs in
// process against a stand-in service (a Transport) that pages both sides and
// narrows by `ids=` as the service does, so both passes run as they would.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Transport, TransportRequest, TransportResponse } from '../../src/client/transport.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { campaignRow } from '../helpers/contract-rows.js';

const ACC = 'acc_h34';
const cfg = tempConfigDir();
type Obj = Record<string, unknown>;

/** A campaign row as the contract has it (stored and live share the shape). */
const row = (id: string, over: Obj = {}): Obj => campaignRow(ACC, id, over);
const without = (r: Obj, field: string): Obj => Object.fromEntries(Object.entries(r).filter(([k]) => k !== field));

/** The stored and the live campaigns of ACC, one page each, narrowed by `ids=` (matched as text, as a careless service would). */
function service(stored: Obj[], live: Obj[]): Transport {
  return {
    async send(req: TransportRequest): Promise<TransportResponse> {
      const url = new URL(req.path, req.origin);
      const rows = url.pathname === `/observe/${ACC}/campaigns` ? live : url.pathname === '/observe/campaigns' ? stored : undefined;
      const ids = url.searchParams.get('ids')?.split(',');
      const body = rows ? { data: ids ? rows.filter((r) => ids.includes(String(r.id))) : rows } : { error: 'not_found', message: 'no such route' };
      return { status: rows ? 200 : 404, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify(body))]) };
    },
    async close() {},
  };
}

async function drift(stored: Obj[], live: Obj[], ...args: string[]) {
  const transport = service(stored, live);
  const r = await runAdopsInProcess(['observe', 'drift', ACC, '--exit-code', '-o', 'json', ...args], {
    env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: 'https://api.adops.test', ADOPS_API_KEY: 'acr_test_full_0001' },
    transport,
  });
  expect(r.stderr).not.toMatch(/bug in adops/);
  const rows: Obj[] = r.stdout === '' ? [] : JSON.parse(r.stdout);
  return { ...r, rows };
}

describe('observe drift judges only checked rows', () => {
  it('control: checked rows that agree are in sync, exit 0', async () => {
    const r = await drift([row('1')], [row('1')]);
    expect([r.code, r.rows]).toEqual([0, []]);
  });

  it('a compared field both sides leave out is "not comparable" on both, never null = null (in sync)', async () => {
    const r = await drift([without(row('1'), 'budget')], [without(row('1'), 'budget')]);
    expect(r.code, r.stderr).toBe(11);
    expect(r.rows).toEqual([{ id: '1', name: 'c1', field: 'budget', stored: 'not comparable: budget: missing', live: 'not comparable: budget: missing' }]);
  });

  it('a status outside its enum, the same on both sides, is "not comparable", never equal', async () => {
    const r = await drift([row('1', { status: 'RUNNING' })], [row('1', { status: 'RUNNING' })]);
    expect(r.code, r.stderr).toBe(11);
    expect(r.rows).toEqual([
      {
        id: '1',
        name: 'c1',
        field: 'status',
        stored: 'not comparable: status: not one of ACTIVE, PAUSED, DELETED, ARCHIVED',
        live: 'not comparable: status: not one of ACTIVE, PAUSED, DELETED, ARCHIVED',
      },
    ]);
  });

  it('two stored rows of one id are "not comparable" (never silently the last one)', async () => {
    const r = await drift([row('1', { status: 'PAUSED' }), row('1')], [row('1')]);
    expect(r.code, r.stderr).toBe(11);
    expect(r.rows).toEqual([{ id: '1', name: 'c1', field: 'id', stored: 'not comparable: the stored read answered 2 rows for this id', live: null }]);
  });

  it('two live rows of one id are "not comparable"', async () => {
    const r = await drift([row('1')], [row('1'), row('1')]);
    expect(r.code, r.stderr).toBe(11);
    expect(r.rows).toEqual([{ id: '1', name: 'c1', field: 'id', stored: null, live: 'not comparable: the live read answered 2 rows for this id' }]);
  });

  it('a live row whose id cannot be read (a number) is matched with nothing: "not comparable", not in sync', async () => {
    const r = await drift([row('1')], [row('1', { id: 1 })]);
    expect(r.code, r.stderr).toBe(11);
    expect(r.rows).toEqual([
      { id: null, name: 'c1', field: 'id', stored: null, live: 'not comparable: id: must be a string' },
      // Pass 2: the stored row's id asked live, answered by that row again: not "missing live" either.
      { id: '1', name: 'c1', field: 'id', stored: null, live: 'not comparable: the live read answered 1 row(s) whose id cannot be read' },
    ]);
  });

  it('a live row whose provider is missing cannot be told stored or not: "not comparable"', async () => {
    const r = await drift([row('1')], [without(row('1'), 'provider')]);
    expect(r.code, r.stderr).toBe(11);
    expect(r.rows).toEqual([{ id: '1', name: 'c1', field: 'provider', stored: null, live: 'not comparable: provider: missing' }]);
  });

  it('a field not compared (--compare status) is not looked at: a budget sent as text does not stop "in sync"', async () => {
    const r = await drift([row('1')], [row('1', { budget: '10' })], '--compare', 'status');
    expect([r.code, r.rows]).toEqual([0, []]);
    const all = await drift([row('1')], [row('1', { budget: '10' })]);
    expect(all.code).toBe(11);
    expect(all.rows).toEqual([{ id: '1', name: 'c1', field: 'budget', stored: 10, live: 'not comparable: budget: must be a number or null' }]);
  });
});
