// The completion cache lives with the rest of the local store (src/state/completion-cache.ts).
export * from '../state/completion-cache.js';
