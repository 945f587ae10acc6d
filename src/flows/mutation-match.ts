// Is a mutation in the history the very change a request body asks for?
// Compared whole: advertiser, target, action and every value the service
// restates under `changes` (nested, same keys on both sides). Comparing only
// top-level keys once adopted an older budget change of another amount.
import { hash } from 'node:crypto';
import { canonicalJson } from '../contract/canonical-json.js';
import { actionEntry } from '../contract/mutation-actions.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deep equality of JSON values: same keys at every level, same values, arrays in order. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (!isObj(a) || !isObj(b)) return false;
  const ka = Object.keys(a)
    .filter((k) => a[k] !== undefined)
    .sort();
  const kb = Object.keys(b)
    .filter((k) => b[k] !== undefined)
    .sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && jsonEqual(a[k], b[k]));
}

/**
 * What the service restates under `changes` for this body is the action's entry's (docs/decisions.md,
 * "Mutation object"); a body of an action we do not know can never be matched, only retried by its key.
 */
export function sameChange(row: Obj, body: Obj): boolean {
  const changes = actionEntry(body.action)?.changes(body);
  if (!changes) return false;
  return row.advertiserId === body.advertiserId && row.action === body.action && jsonEqual(row.target, body.target) && jsonEqual(row.changes, changes);
}

/** One-shot `crypto.hash` (Node >= 20.12; package.json asks >= 20.19): a Hash object per row cost more than the digest. */
export const bodyHash = (body: Obj): string => hash('sha256', canonicalJson(body)).slice(0, 16);

/**
 * Row identities of a change file (what the journal of `mutations apply`, src/state/mutation-journal.ts, keys rows by
 * within a service): identical rows are distinct changes, told apart by occurrence.
 */
export function rowIds(bodies: readonly Obj[]): string[] {
  const seen = new Map<string, number>();
  return bodies.map((b) => {
    const h = bodyHash(b);
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    return `${h}#${n}`;
  });
}
