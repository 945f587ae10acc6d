// Wait until a Line Item is ready to execute. Readiness answers `ready` and
// what is `missing` rather than a state word, so it is wrapped into the state
// the generic watcher (flows/watch.ts) reads: ready, waiting, or failed when a
// missing condition is one no wait can fix. No terminal code.
import { watchUntilDone, type WatchOptions } from './watch.js';

export interface Readiness {
  lineItemId?: string;
  ready: boolean;
  missing: Array<{ code: string; message: string; problems?: unknown[] }>;
  [key: string]: unknown;
}

/** Missing conditions no wait can fix: an archived plan is terminal. */
const NEVER = new Set(['plan_archived']);

export type ReadinessOutcome = 'ready' | 'never' | 'timeout';

export function readinessState(r: Readiness): 'ready' | 'waiting' | 'failed' {
  if (r.ready) return 'ready';
  return (r.missing ?? []).some((m) => NEVER.has(m.code)) ? 'failed' : 'waiting';
}

export async function waitForReadiness(
  opts: Omit<WatchOptions<Readiness>, 'onPoll'> & { onPoll?: (r: Readiness) => void },
): Promise<{ value: Readiness | undefined; outcome: ReadinessOutcome }> {
  const { value, outcome } = await watchUntilDone({
    ...opts,
    fetch: async (signal) => {
      const readiness = await opts.fetch(signal);
      return { state: readinessState(readiness), readiness };
    },
    onPoll: (w) => opts.onPoll?.(w.readiness),
  });
  return { value: value?.readiness, outcome: outcome === 'succeeded' ? 'ready' : outcome === 'failed' ? 'never' : 'timeout' };
}
