import type { TestSandbox } from '../../helpers/sandbox.js';
import type { ManualClock } from '../clock.js';
import { APPLY_DELAY_MS, START_DELAY_MS } from '../../../src/sandbox/models/lifecycle.js';

/** GET /mutations/{id}: the request itself takes the steps due on the sandbox clock. */
export async function read(sb: TestSandbox, id: string, key = sb.keys.full) {
  const res = await sb.req('GET', `/mutations/${id}`, { key });
  if (res.status !== 200) throw new Error(`GET /mutations/${id} answered ${res.status}: ${res.text}`);
  return res.body;
}

/** Move the sandbox clock past both steps and read every listed mutation (finished, by the table's delays). */
export async function settle(sb: TestSandbox, clock: ManualClock, ids: string[], key = sb.keys.full) {
  clock.advance(START_DELAY_MS + APPLY_DELAY_MS);
  const out = [];
  for (const id of ids) out.push(await read(sb, id, key));
  return out;
}

export const start = (sb: TestSandbox, body: unknown, opts: { key?: string; idempotencyKey?: string } = {}) =>
  sb.req('POST', '/mutations', {
    key: opts.key ?? sb.keys.full,
    body,
    ...(opts.idempotencyKey !== undefined ? { headers: { 'idempotency-key': opts.idempotencyKey } } : {}),
  });
