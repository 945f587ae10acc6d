// What keeps a long page walk (`--all` over hundreds of thousands of rows) in
// the memory of its first pages (#27). Two things grew with the row count:
//
// - the cursors already given, kept to refuse a loop: a set of every cursor
//   grew by one string a page. CursorLoopGuard keeps the last RECENT cursors
//   (a short loop is refused at its first repeat, as before) and one
//   checkpoint moved by Brent's cycle detection (a loop of any length is
//   refused within twice its length): constant memory.
// - V8's young generation: held by ./young-generation.ts (the one decision,
//   shared with every long run).
import { RepeatedCursorError } from './errors.js';

/** How many recent cursors are compared exactly (a loop this short is refused at its first repeat). */
export const RECENT_CURSORS = 256;

export class CursorLoopGuard {
  private readonly recent: string[] = [];
  private readonly recentSet = new Set<string>();
  private checkpoint: string | undefined;
  private power = 1;
  private steps = 0;

  constructor(
    private readonly path: string,
    first: string | undefined,
  ) {
    if (first !== undefined) this.remember(first);
    this.checkpoint = first;
  }

  /** A page's nextCursor: throws RepeatedCursorError when the service gave it already. */
  next(cursor: string): void {
    if (this.recentSet.has(cursor) || cursor === this.checkpoint) throw new RepeatedCursorError(cursor, this.path);
    this.remember(cursor);
    // Brent: the checkpoint jumps to the current cursor after 1, 2, 4, 8… steps, so a loop longer
    // than RECENT_CURSORS passes it again within twice its length.
    if (++this.steps >= this.power) {
      this.checkpoint = cursor;
      this.power *= 2;
      this.steps = 0;
    }
  }

  private remember(cursor: string): void {
    this.recent.push(cursor);
    this.recentSet.add(cursor);
    if (this.recent.length > RECENT_CURSORS) this.recentSet.delete(this.recent.shift()!);
  }
}
