// Issue 13 item 21: a read of a mutation answers its state at once, also while
// a slow provider is applying the change (the old sandbox held GET
// /mutations/{id} until the provider was done). The provider's latency is the
// one real wait here, kept short; the lifecycle runs on the injected clock.
import { expect, it } from 'vitest';
import { useTestSandbox } from '../../helpers/sandbox.js';
import { setProviderFaults } from '../../../src/sandbox/providers/faults.js';
import { APPLY_DELAY_MS, START_DELAY_MS } from '../../../src/sandbox/models/lifecycle.js';
import { ManualClock } from '../clock.js';
import { mutationsWorld } from './world.js';
import { read, start } from './helpers.js';

const LATENCY_MS = 800;
const clock = new ManualClock();
const sb = useTestSandbox({ world: mutationsWorld(), clock });

it('answers running at once while the provider applies the change, succeeded once it is done', async () => {
  setProviderFaults(sb.services, 'provider_a', { errorRate: 0, latencyMs: LATENCY_MS, rateLimitPerMinute: null, seed: 1 });
  const res = await start(sb, { advertiserId: 'acc_a', target: { type: 'campaign', id: '100' }, action: 'pause' });
  expect(res.status).toBe(202);
  clock.advance(START_DELAY_MS + APPLY_DELAY_MS);

  const t0 = Date.now();
  const first = await read(sb, res.body.id);
  const took = Date.now() - t0;
  expect(first.state).toBe('running');
  expect(took).toBeLessThan(LATENCY_MS / 2);
  // A second read, the provider still busy: answered at once too, and the change is applied once.
  expect((await read(sb, res.body.id)).state).toBe('running');

  await sb.services.mutations.advance(); // the pass in flight: the provider's latency, once
  const done = await read(sb, res.body.id);
  expect(done.state).toBe('succeeded');
  expect(sb.services.providerCalls.state('provider_a', 1).calls).toBe(1);
  setProviderFaults(sb.services, 'provider_a', { errorRate: 0, latencyMs: 0, rateLimitPerMinute: null, seed: 1 });
});
