// The config store lives with the rest of the local store (src/state/config-store.ts);
// this path stays so its many importers need no change.
export * from '../state/config-store.js';
