// Reading JSON that arrives untyped (an answer's body, a file we wrote before):
// narrowed by checks, never asserted.

/** A JSON object (not null, not an array), its fields still unknown. */
export const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
