// Wait until a Line Item is ready to execute. Readiness answers `ready` and
// what is `missing` rather than a state word; its acceptors say so to the one
// waiter (client/waiter.ts): success when ready, failure when a missing
// condition is one no wait can fix (an archived plan). No terminal code.
import type { Acceptor } from '../client/waiter.js';

export interface Readiness {
  lineItemId?: string;
  ready: boolean;
  missing: Array<{ code: string; message: string; problems?: unknown[] | undefined }>;
  [key: string]: unknown;
}

export const READINESS_ACCEPTORS: readonly Acceptor[] = [
  { state: 'success', matcher: 'path', path: 'ready', expected: true },
  { state: 'failure', matcher: 'pathAny', path: 'missing[].code', expected: ['plan_archived'] },
];
