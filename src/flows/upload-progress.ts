// Progress of uploads for a person, as text: on a terminal one redrawn bar
// per file in flight (bytes, rate, ETA); elsewhere (CI logs, pipes) plain
// lines at the start, every 10% or 10 s, and at the end, never a `\r`.
// Pure text: the command hands in `write` (stderr), the clock, and `clean`, the
// CLI's one boundary for outside text (file names, the service's notes), so this
// flow has no cleaner of its own to forget a secret or a line break.
import { humanBytes as bytes } from '../contract/media.js';

/** Fixed decimals: a progress line must not jitter as it updates. */
const humanBytes = (n: number) => bytes(n, true);
import type { UploadEvent } from './upload.js';

const PLAIN_EVERY_MS = 10_000;
const REDRAW_EVERY_MS = 100;

interface FileState {
  name: string;
  size: number;
  startedAt: number;
  sent: number;
  lastDecile: number;
  lastLineAt: number;
}

export function rate(sent: number, elapsedMs: number): number {
  return elapsedMs > 0 ? (sent * 1000) / elapsedMs : 0;
}

function eta(sent: number, size: number, elapsedMs: number): string {
  const r = rate(sent, elapsedMs);
  if (r <= 0 || sent >= size) return '';
  const s = Math.ceil((size - sent) / r);
  return s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min` : s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

const percent = (sent: number, size: number) => (size > 0 ? Math.floor((sent * 100) / size) : 100);

/** The plain line for a progress update, or undefined when none is due (every 10% or 10 s). */
export function plainProgressLine(f: FileState, sent: number, now: number): string | undefined {
  f.sent = sent;
  const decile = f.size > 0 ? Math.floor((sent * 10) / f.size) : 10;
  const due = (decile > f.lastDecile && decile < 10) || (now - f.lastLineAt >= PLAIN_EVERY_MS && sent < f.size);
  if (!due) return undefined;
  f.lastDecile = Math.max(f.lastDecile, decile);
  f.lastLineAt = now;
  const elapsed = now - f.startedAt;
  const left = eta(sent, f.size, elapsed);
  return `${f.name}: ${percent(sent, f.size)}% (${humanBytes(sent)} of ${humanBytes(f.size)}, ${humanBytes(Math.round(rate(sent, elapsed)))}/s${left ? `, about ${left} left` : ''})`;
}

/** One bar line for a terminal: name, bar, percent, bytes, rate, ETA; fits `width`. */
export function barLine(f: FileState, now: number, width: number): string {
  const elapsed = now - f.startedAt;
  const left = eta(f.sent, f.size, elapsed);
  const stats = ` ${String(percent(f.sent, f.size)).padStart(3)}% ${humanBytes(f.sent)}/${humanBytes(f.size)} ${humanBytes(Math.round(rate(f.sent, elapsed)))}/s${left ? ` ETA ${left}` : ''}`;
  const nameWidth = Math.min(30, Math.max(8, width - stats.length - 14));
  const name = f.name.length > nameWidth ? '…' + f.name.slice(-(nameWidth - 1)) : f.name.padEnd(nameWidth);
  const barWidth = Math.max(5, Math.min(30, width - nameWidth - stats.length - 4));
  const filled = f.size > 0 ? Math.round((f.sent / f.size) * barWidth) : barWidth;
  return `${name} [${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]${stats}`.slice(0, width - 1);
}

export interface ProgressOptions {
  /** Redraw bars (stderr is a terminal); otherwise plain lines. */
  tty: boolean;
  write: (text: string) => void;
  /** One line of outside text made safe to show (the CLI's lineText: controls, line breaks, secrets). */
  clean: (text: string) => string;
  now: () => number;
  columns?: number;
  /**
   * Off a terminal: the lines of one turn of the event loop go out in one write (#27). A folder
   * of 300 small files printed 900 lines, each a write system call to the pipe (~0.1 ms apiece of
   * the run's one thread); the lines and their order are the same. flush() writes them at once.
   */
  coalesce?: boolean;
}

export class UploadProgress {
  private readonly files = new Map<string, FileState>();
  private drawn = 0;
  private lastDraw = 0;

  /** Lines not written yet (coalesce), and whether a flush is due. */
  private pending = '';
  private flushDue = false;

  constructor(private readonly o: ProgressOptions) {}

  private write(text: string): void {
    if (!this.o.coalesce || this.o.tty) return this.o.write(text);
    this.pending += text;
    if (this.flushDue) return;
    this.flushDue = true;
    setImmediate(() => this.flush());
  }

  /** Write what is held back now (before another writer of the same stream speaks). */
  flush(): void {
    this.flushDue = false;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.o.write(text);
  }

  /** A line that stays (a note, a result), printed above the bars. */
  line(text: string): void {
    this.erase();
    this.write(this.o.clean(text) + '\n');
    this.draw(true);
  }

  handle(e: UploadEvent): void {
    const now = this.o.now();
    if (e.type === 'note') return this.line(`${this.o.clean(e.file)}: ${e.message}`);
    if (e.type === 'start') {
      // Cleaned once per file (#37): its progress and its `sent` line use this name.
      const name = this.o.clean(e.file);
      this.files.set(e.file, { name, size: e.size, startedAt: now, sent: 0, lastDecile: 0, lastLineAt: now });
      // The line cleaned whole, as line() does: a name ending in `:` must not make `::` with what follows (a CI workflow command).
      if (!this.o.tty) this.write(this.o.clean(`${name}: sending ${humanBytes(e.size)} as ${e.contentType}`) + '\n');
      return this.draw(true);
    }
    const f = this.files.get(e.file);
    if (!f) return;
    if (e.type === 'progress') {
      if (!this.o.tty) {
        const text = plainProgressLine(f, e.sent, now);
        if (text) this.write(this.o.clean(text) + '\n');
        return;
      }
      f.sent = e.sent;
      return this.draw(false);
    }
    // sent
    this.files.delete(e.file);
    const elapsed = Math.max(1, now - f.startedAt);
    this.line(`${f.name}: sent ${humanBytes(e.size)} in ${(elapsed / 1000).toFixed(1)} s (${humanBytes(Math.round(rate(e.size, elapsed)))}/s)`);
  }

  /** Remove the bars (before the results and the summary). */
  close(): void {
    this.erase();
    this.files.clear();
    this.flush();
  }

  private erase(): void {
    if (!this.o.tty || this.drawn === 0) return;
    this.write('\x1b[1A\x1b[2K'.repeat(this.drawn));
    this.drawn = 0;
  }

  private draw(force: boolean): void {
    if (!this.o.tty) return;
    const now = this.o.now();
    if (!force && now - this.lastDraw < REDRAW_EVERY_MS) return;
    this.lastDraw = now;
    this.erase();
    const width = this.o.columns ?? 80;
    const lines = [...this.files.values()].map((f) => barLine(f, now, width) + '\n');
    this.write(lines.join(''));
    this.drawn = lines.length;
  }
}
