// Wait until a Line Item is ready to execute. Readiness answers `ready` and
// what is `missing` rather than a state word; its acceptors say so to the one
// waiter (client/waiter.ts): success when ready, failure when a missing
// condition is one no wait can fix (an archived plan). No terminal code.
import { waitFor, type Acceptor, type WaitOptions } from '../client/waiter.js';

export interface Readiness {
  lineItemId?: string;
  ready: boolean;
  missing: Array<{ code: string; message: string; problems?: unknown[] }>;
  [key: string]: unknown;
}

export const READINESS_ACCEPTORS: readonly Acceptor[] = [
  { state: 'success', matcher: 'path', path: 'ready', expected: true },
  { state: 'failure', matcher: 'pathAny', path: 'missing[].code', expected: ['plan_archived'] },
];

export type ReadinessOutcome = 'ready' | 'never' | 'timeout';

const WORDS = { success: 'ready', failure: 'never', timeout: 'timeout' } as const;

/** Transitional for commands/plans/readiness.ts, which reads ready/never/timeout; waitFor with READINESS_ACCEPTORS is the same wait. */
export async function waitForReadiness(
  opts: Omit<WaitOptions<Readiness>, 'acceptors'> & { fetch: (signal: AbortSignal) => Promise<Readiness> },
): Promise<{ value: Readiness | undefined; outcome: ReadinessOutcome }> {
  const { fetch, ...rest } = opts;
  const { value, outcome } = await waitFor(fetch, { ...rest, acceptors: READINESS_ACCEPTORS });
  return { value, outcome: WORDS[outcome] };
}
