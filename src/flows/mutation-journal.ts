// Row identities of a change file (what the journal of `mutations apply` is keyed by within a
// service); the journal itself lives with the rest of the local store (src/state/mutation-journal.ts).
import { bodyHash } from './mutation-match.js';

export * from '../state/mutation-journal.js';

type Obj = Record<string, unknown>;

/** Row identities for a file's bodies: identical rows are distinct changes, told apart by occurrence. */
export function rowIds(bodies: readonly Obj[]): string[] {
  const seen = new Map<string, number>();
  return bodies.map((b) => {
    const h = bodyHash(b);
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    return `${h}#${n}`;
  });
}
