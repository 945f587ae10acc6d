// The one transition table of the sandbox's asynchronous resources. Each
// machine lists, per state, where it may go and what moves it:
//
// - `due`: time alone (the sandbox clock). Such steps are taken when due: on
//   access (a request to an API that could observe them) and, under
//   `sandbox serve`, by a light ticker; never by a timer a test must wait for.
//   A step is stamped with the time it fell due, so when it is noticed does not
//   change what a reader sees.
// - `event`: a request (a PUT of bytes, finalize, delete) moves it.
//
// The mutation advancer reads its delays from here; the upload, asset and
// document models move their rows by conditional updates that follow these
// edges (test/sandbox/lifecycle.test.ts checks the table's shape).

export const START_DELAY_MS = 200;
export const APPLY_DELAY_MS = 300;

/**
 * How long a mutation stays pending, then running, in one sandbox: the table's delays unless the sandbox
 * was started with its own (StartOptions.mutationDelaysMs: a test that waits for many changes and checks
 * none of the times). Only the two due steps' delays; the states and their order are the table's.
 */
export interface MutationDelays {
  startMs: number;
  applyMs: number;
}

export type Step = { to: readonly string[]; due: { afterMs: number; since: string } } | { to: readonly string[]; event: string };

/** A machine: each state's outgoing step, or null for a final state. */
export type Machine = Readonly<Record<string, Step | null>>;

export const LIFECYCLES = {
  mutation: {
    pending: { to: ['running'], due: { afterMs: START_DELAY_MS, since: 'created_at' } },
    // The change is applied at the provider on this step: failed carries the provider's refusal.
    running: { to: ['succeeded', 'failed'], due: { afterMs: APPLY_DELAY_MS, since: 'started_at' } },
    succeeded: null,
    failed: null,
  },
  /** The upload slot shared by Assets and Documents (models/uploads/uploads.ts). */
  upload: {
    awaiting_bytes: { to: ['received', 'too_large'], event: 'a PUT to the upload URL ends (complete, or cut off past the limit)' },
    received: null,
    too_large: null,
  },
  /** `uploaded` is shown, not stored: `reserved` whose upload is `received`. `deleted` removes the row. */
  asset: {
    reserved: { to: ['ready', 'deleted'], event: 'finalize judges the bytes (refused: deleted), or DELETE' },
    ready: { to: ['deleted'], event: 'DELETE' },
    deleted: null,
  },
  document: {
    pending_upload: { to: ['ready', 'deleted'], event: 'finalize judges the bytes (refused: deleted), or DELETE' },
    ready: { to: ['deleted'], event: 'DELETE' },
    deleted: null,
  },
} as const satisfies Record<string, Machine>;

/** Whether `machine` may move from `from` to `to`. */
export function canMove(machine: Machine, from: string, to: string): boolean {
  return machine[from]?.to.includes(to) ?? false;
}
