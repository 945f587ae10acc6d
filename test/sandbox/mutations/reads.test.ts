// A succeeded mutation is visible to a live read at once, and to the stored
// read after the next ingestion (spec: two read modes).
import { expect, it } from 'vitest';
import { useTestSandbox } from '../../helpers/sandbox.js';
import { ManualClock } from '../clock.js';
import { mutationsWorld } from './world.js';
import { read, settle, start } from './helpers.js';

const clock = new ManualClock();
const sb = useTestSandbox({ world: mutationsWorld(), clock });

const live = () => sb.req('GET', '/observe/acc_a/campaigns/100', { key: sb.keys.full });
const stored = async () => (await sb.req('GET', '/observe/campaigns', { key: sb.keys.full, query: { advertiserId: 'acc_a', ids: '100' } })).body.data[0];

it('live read sees the change once succeeded; the stored read after the next ingestion', async () => {
  expect((await live()).body.name).toBe('A campaign');
  const res = await start(sb, { advertiserId: 'acc_a', target: { type: 'campaign', id: '100' }, action: 'rename', name: 'Spring sale' });

  clock.advance(200);
  expect((await read(sb, res.body.id)).state).toBe('running');
  expect((await live()).body.name).toBe('A campaign'); // not applied while running

  // Due now: the live read itself takes the step, nobody polled the mutation.
  clock.advance(300);
  expect((await live()).body.name).toBe('Spring sale');
  expect((await read(sb, res.body.id)).state).toBe('succeeded');
  expect((await stored()).name).toBe('A campaign');

  expect((await sb.req('POST', '/_sandbox/ingest')).status).toBe(200);
  expect((await stored()).name).toBe('Spring sale');
});

it('a budget in whole units reads back in whole units, live', async () => {
  const res = await start(sb, {
    advertiserId: 'acc_a',
    target: { type: 'campaign', id: '100' },
    action: 'set_budget',
    budget: { amount: 64.25, type: 'daily' },
  });
  await settle(sb, clock, [res.body.id]);
  expect((await live()).body.daily_budget).toBe(64.25);
});
