// JSON with sorted keys (undefined members left out): equal bodies give equal
// text whatever their key order. One function for both sides of a mutation's
// identity: the CLI's row identity in the journal of `mutations apply`
// (flows/mutation-match.ts) and the sandbox's hash of the body an
// Idempotency-Key was first used with (sandbox/models/mutations.ts). Both are
// kept on disk, so the text must never change.

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Built in one string: it runs twice per row of a file of changes (the check pass, then the send). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value);
  let text = '{';
  for (const k of Object.keys(value).sort()) {
    const v = value[k];
    if (v === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(k)}:${canonicalJson(v)}`;
  }
  return `${text}}`;
}
