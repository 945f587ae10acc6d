// The upload journal lives with the rest of the local store (src/state/upload-journal.ts).
export * from '../state/upload-journal.js';
