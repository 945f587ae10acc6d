// The plan-apply markers live with the rest of the local store (src/state/plan-markers.ts).
export * from '../state/plan-markers.js';
