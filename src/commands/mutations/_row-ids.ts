// Row identities (the journal's `hash#occurrence`, see rowIds in
// flows/mutation-journal.ts) for a file read twice instead of held (one past
// READ_ONCE_BYTES, commands/mutations/apply.ts): the first
// pass marks every body hash in a fixed-size filter and remembers only the
// hashes the filter may have seen before; the second counts occurrences of
// those alone. Every other row is its hash's first occurrence. Memory: the
// filter (4 MiB) plus the repeated rows, whatever the file's length.
import { bodyHash } from '../../flows/mutation-match.js';

type Obj = Record<string, unknown>;

const BITS = 1 << 25;
const PROBES = 3;

export class StreamedRowIds {
  private readonly filter = new Uint8Array(BITS / 8);
  private readonly maybeRepeated = new Set<string>();
  private readonly counts = new Map<string, number>();

  /** First pass: one call per row, in file order. */
  see(body: Obj): void {
    const hash = bodyHash(body);
    // Bit positions by double hashing the (hex) body hash's two halves, computed in place (#37: an
    // array and a callback per row were this pass's largest cost after the hash itself).
    const a = parseInt(hash.slice(0, 8), 16);
    const b = (parseInt(hash.slice(8, 16), 16) | 1) >>> 0;
    let all = true;
    for (let i = 0; i < PROBES; i++) {
      const p = (a + i * b) % BITS;
      const bit = 1 << (p & 7);
      if (!(this.filter[p >> 3]! & bit)) all = false;
      this.filter[p >> 3] = this.filter[p >> 3]! | bit;
    }
    if (all) this.maybeRepeated.add(hash);
  }

  /** Second pass: the row's identity, one call per row in the same order. */
  id(body: Obj): string {
    const hash = bodyHash(body);
    if (!this.maybeRepeated.has(hash)) return `${hash}#1`;
    const n = (this.counts.get(hash) ?? 0) + 1;
    this.counts.set(hash, n);
    return `${hash}#${n}`;
  }
}
