// The lock now lives with the rest of the local store (src/state/lock.ts); this
// path stays so the flows that import it need no change.
export * from '../state/lock.js';
