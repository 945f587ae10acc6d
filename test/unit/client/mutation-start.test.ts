// The mutation start flow against a real loopback server that honours the
// Idempotency-Key like the sandbox (same key + same body → the same mutation)
// and loses answers on purpose: after storing the change, before storing it,
// or every time.
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/client/http.js';
import { loopbackServer } from '../../helpers/drop-proxy.js';
import { OutcomeUnknownError, startMutation } from '../../../src/flows/mutation-start.js';
import { sameChange } from '../../../src/flows/mutation-match.js';

type Row = Record<string, unknown>;
let stored: Row[] = [];
let byKey = new Map<string, Row>();
let posts = 0;
let mode: 'lose-after-create' | 'lose-before-create' | 'lose-all' = 'lose-after-create';
let listStatus = 200;
const keys: string[] = [];

const changesOf = (b: Row) => (b.action === 'set_budget' ? { budget: b.budget } : { status: 'PAUSED' });

const server = loopbackServer((req, res, text) => {
  if (req.method === 'POST' && req.url === '/mutations') {
    posts++;
    const key = String(req.headers['idempotency-key']);
    keys.push(key);
    const lose = mode === 'lose-all' || posts === 1;
    if (lose && mode !== 'lose-after-create') return req.socket.destroy();
    const body = JSON.parse(text) as Row;
    let row = byKey.get(key);
    if (!row) {
      row = {
        id: `mut_${posts}`,
        state: 'pending',
        createdAt: Date.now(),
        advertiserId: body.advertiserId,
        action: body.action,
        target: body.target,
        changes: changesOf(body),
      };
      byKey.set(key, row);
      stored.unshift(row);
    }
    if (lose) return req.socket.destroy();
    res.writeHead(202, { 'content-type': 'application/json' });
    return res.end(JSON.stringify(row));
  }
  if (req.method === 'GET' && req.url!.startsWith('/mutations')) {
    res.writeHead(listStatus, { 'content-type': 'application/json' });
    return res.end(JSON.stringify(listStatus === 200 ? { data: stored } : { error: 'forbidden', message: 'no mutation:read' }));
  }
  res.writeHead(404).end();
});

const budget = (amount: number) => ({ advertiserId: 'acc_1', action: 'set_budget', target: { type: 'campaign', id: '9' }, budget: { amount } });
const OLD = {
  id: 'mut_old',
  state: 'succeeded',
  advertiserId: 'acc_1',
  action: 'set_budget',
  target: { type: 'campaign', id: '9' },
  changes: { budget: { amount: 20 } },
  createdAt: Date.now(),
};

beforeEach(() => {
  // An older change with the same action and target but another amount: never to be taken for ours.
  stored = [{ ...OLD, createdAt: Date.now() }];
  byKey = new Map();
  posts = 0;
  listStatus = 200;
  keys.length = 0;
});

const client = () => new ApiClient({ baseUrl: server.url, apiKey: 'acr_t', userAgent: 'adops/test' });
const fast = { sleep: async () => {} };

describe('startMutation', () => {
  it('after a lost answer, resends with the same key and gets the change already made (one on the server)', async () => {
    mode = 'lose-after-create';
    const notes: string[] = [];
    const r = await startMutation(client(), budget(50), { ...fast, onNote: (m) => notes.push(m) });
    expect(r.recovered).toBe('resent');
    expect(r.mutation.id).toBe('mut_1');
    expect(posts).toBe(2);
    expect(keys[0]).toBe(keys[1]);
    expect(stored.filter((s) => s.id !== 'mut_old')).toHaveLength(1);
    expect(notes.join('\n')).toMatch(/same Idempotency-Key[\s\S]*made once/);
  });

  it('a POST that never reached the server is made once by the resend; the older change is not adopted', async () => {
    mode = 'lose-before-create';
    const r = await startMutation(client(), budget(50), fast);
    expect(r.mutation.id).not.toBe('mut_old');
    expect(r.mutation.changes).toEqual({ budget: { amount: 50 } });
    expect(stored.filter((s) => s.id !== 'mut_old')).toHaveLength(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when every send is lost it says it cannot tell, with the key, and never adopts a different change', async () => {
    mode = 'lose-all';
    const err = await startMutation(client(), budget(50), { ...fast, resends: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    const e = err as OutcomeUnknownError;
    expect(e.idempotencyKey).toBe(keys[0]);
    expect(new Set(keys).size).toBe(1);
    expect(posts).toBe(3);
    expect(e.lookup).toEqual({ kind: 'searched', candidates: [] });
  });

  it('a 403 on the history look-up (write-only key) is reported, not the run failing differently', async () => {
    mode = 'lose-all';
    listStatus = 403;
    const err = (await startMutation(client(), budget(50), { ...fast, resends: 1 }).catch((e: unknown) => e)) as OutcomeUnknownError;
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err.lookup).toEqual({ kind: 'forbidden' });
  });

  it('compares the whole change, nested values included', () => {
    expect(sameChange(OLD, budget(20))).toBe(true);
    expect(sameChange(OLD, budget(50))).toBe(false);
    expect(sameChange(OLD, { ...budget(20), budget: { amount: 20, type: 'daily' } })).toBe(false);
    expect(sameChange(OLD, { ...budget(20), target: { type: 'campaign', id: '8' } })).toBe(false);
    expect(
      sameChange({ ...OLD, action: 'pause', changes: { status: 'PAUSED' } }, { advertiserId: 'acc_1', action: 'pause', target: { type: 'campaign', id: '9' } }),
    ).toBe(true);
    expect(sameChange(OLD, { ...budget(20), action: 'future_action' })).toBe(false);
  });
});
