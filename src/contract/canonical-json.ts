// JSON with sorted keys (undefined members left out): equal bodies give equal
// text whatever their key order. One function for both sides of a mutation's
// identity: the CLI's row identity in the journal of `mutations apply`
// (flows/mutation-match.ts) and the sandbox's hash of the body an
// Idempotency-Key was first used with (sandbox/models/mutations.ts). Both are
// kept on disk, so the text must never change.

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Up to this many keys are sorted in place by insertion; more by Array.prototype.sort (no quadratic worst case). */
const FEW_KEYS = 16;

/**
 * An object's keys in code-unit order, as `sort()` without a comparator orders strings. A body has a handful of
 * keys: sorting them in place allocates nothing, where sort() took a work array per object (#37: two per row).
 */
function sortedKeys(value: Record<string, unknown>): string[] {
  const keys = Object.keys(value);
  if (keys.length > FEW_KEYS) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > k; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = k;
  }
  return keys;
}

/** Built in one string: it runs twice per row of a file of changes (the check pass, then the send). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value);
  let text = '{';
  for (const k of sortedKeys(value)) {
    const v = value[k];
    if (v === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(k)}:${canonicalJson(v)}`;
  }
  return `${text}}`;
}
