import type { TestSandbox } from '../../helpers/sandbox.js';
import type { ManualClock } from '../../../src/sandbox/http/context.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll GET /mutations/{id} (real time) until it reaches one of `states`. */
export async function waitForState(sb: TestSandbox, id: string, states: string[], key = sb.keys.full!, ms = 3000) {
  const until = Date.now() + ms;
  for (;;) {
    const res = await sb.req('GET', `/mutations/${id}`, { key });
    if (states.includes(res.body.state)) return res.body;
    if (Date.now() > until) throw new Error(`mutation ${id} stayed ${res.body.state}, wanted ${states.join('|')}`);
    await sleep(15);
  }
}

/** Move the sandbox clock past both worker delays and wait for every listed mutation to finish. */
export async function settle(sb: TestSandbox, clock: ManualClock, ids: string[], key = sb.keys.full!) {
  clock.advance(200);
  for (const id of ids) await waitForState(sb, id, ['running', 'succeeded', 'failed'], key);
  clock.advance(300);
  const out = [];
  for (const id of ids) out.push(await waitForState(sb, id, ['succeeded', 'failed'], key));
  return out;
}

export const start = (sb: TestSandbox, body: unknown, opts: { key?: string; idempotencyKey?: string } = {}) =>
  sb.req('POST', '/mutations', {
    key: opts.key ?? sb.keys.full,
    body,
    ...(opts.idempotencyKey !== undefined ? { headers: { 'idempotency-key': opts.idempotencyKey } } : {}),
  });
