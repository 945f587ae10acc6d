// Progress text: plain lines every 10% or 10 s off a terminal (never a \r),
// bars that fit the terminal on one.
import { describe, expect, it } from 'vitest';
import { barLine, plainProgressLine, UploadProgress } from '../../../src/flows/upload-progress.js';
import { lineText } from '../../../src/cli/output/sanitize.js';
import { describeBytes, humanBytes, judgeAsset, judgeDocument } from '../../../src/contract/media.js';
import { jpeg, mp4, png } from '../uploads/media-samples.js';

const MiB = 1024 * 1024;
const state = (size: number) => ({ name: 'hero.mp4', size, startedAt: 0, sent: 0, lastDecile: 0, lastLineAt: 0 });

describe('plain progress lines', () => {
  it('one line per 10% step, with bytes, rate and time left', () => {
    const f = state(100 * MiB);
    expect(plainProgressLine(f, 5 * MiB, 500)).toBeUndefined();
    expect(plainProgressLine(f, 10 * MiB, 1000)).toBe('hero.mp4: 10% (10.0 MiB of 100 MiB, 10.0 MiB/s, about 9 s left)');
    expect(plainProgressLine(f, 15 * MiB, 1500)).toBeUndefined();
    // A jump over several steps gives one line, not one per step.
    expect(plainProgressLine(f, 45 * MiB, 4000)).toMatch(/^hero\.mp4: 45% /);
    expect(plainProgressLine(f, 49 * MiB, 4100)).toBeUndefined();
    // The end is reported by the "sent" line, not as 100%.
    expect(plainProgressLine(f, 100 * MiB, 9000)).toBeUndefined();
  });

  it('every 10 s when a step takes longer', () => {
    const f = state(100 * MiB);
    expect(plainProgressLine(f, 1 * MiB, 9_999)).toBeUndefined();
    expect(plainProgressLine(f, 1 * MiB, 10_000)).toMatch(/^hero\.mp4: 1% \(1\.00 MiB of 100 MiB/);
    expect(plainProgressLine(f, 2 * MiB, 15_000)).toBeUndefined();
    expect(plainProgressLine(f, 2 * MiB, 20_000)).toMatch(/ 2% /);
  });

  it('off a terminal no line of a name ending in a colon reads as a CI workflow command', () => {
    let out = '';
    let now = 0;
    const p = new UploadProgress({ tty: false, write: (s) => (out += s), clean: lineText, now: () => now });
    const file = '::error title=x:';
    p.handle({ type: 'start', file, size: 10 * MiB, contentType: 'image/png', url: 'http://s/u' });
    now += 1000;
    p.handle({ type: 'progress', file, sent: 5 * MiB, size: 10 * MiB });
    p.handle({ type: 'sent', file, size: 10 * MiB });
    p.close();
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).not.toMatch(/^\s*::[^\n]*::/);
  });

  it('off a terminal the whole output has no \\r and no escape sequences', () => {
    let out = '';
    let now = 0;
    const p = new UploadProgress({ tty: false, write: (s) => (out += s), clean: lineText, now: () => now });
    p.handle({ type: 'start', file: 'a\rb.png', size: 10 * MiB, contentType: 'image/png', url: 'http://s/u' });
    for (let i = 1; i <= 10; i++) {
      now += 1000;
      p.handle({ type: 'progress', file: 'a\rb.png', sent: i * MiB, size: 10 * MiB });
    }
    p.handle({ type: 'sent', file: 'a\rb.png', size: 10 * MiB });
    p.close();
    expect(out).not.toMatch(/[\r\x1b]/);
    expect(out.trim().split('\n')).toHaveLength(1 + 9 + 1);
  });

  it("a file name or the service's note goes through the CLI's one boundary: one line, no escapes, no key (#25)", () => {
    let out = '';
    const p = new UploadProgress({ tty: false, write: (s) => (out += s), clean: lineText, now: () => 0 });
    p.handle({ type: 'note', file: 'x\x1b]0;t\x07.png', message: 'finalize said: bad\r\nInjected-Line acr_live_0123456789abcdef' });
    expect(out).not.toMatch(/^Injected-Line/m);
    expect(out).not.toContain('acr_live_0123456789abcdef');
    expect(out).not.toMatch(/\x1b/);
    expect(out.trim().split('\n')).toHaveLength(1);
  });

  it('off a terminal with coalesce, the lines of one turn of the event loop go out in one write, in order (#27)', async () => {
    const writes: string[] = [];
    const p = new UploadProgress({ tty: false, write: (s) => writes.push(s), clean: lineText, now: () => 0, coalesce: true });
    for (const f of ['a.png', 'b.png']) {
      p.handle({ type: 'start', file: f, size: 45, contentType: 'image/png', url: 'http://s/u' });
      p.handle({ type: 'sent', file: f, size: 45 });
      p.line(`${f}: ready as ast_${f[0]}`);
    }
    expect(writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n').map((l) => l.replace(/ sent .*/, ' sent'))).toEqual([
      'a.png: sending 45 B as image/png',
      'a.png: sent',
      'a.png: ready as ast_a',
      'b.png: sending 45 B as image/png',
      'b.png: sent',
      'b.png: ready as ast_b',
      '',
    ]);
    p.line('c.png: a note');
    p.flush(); // before another writer speaks
    expect(writes).toEqual([writes[0], 'c.png: a note\n']);
    p.close();
    await new Promise((r) => setImmediate(r));
    expect(writes).toHaveLength(2);
  });

  it('on a terminal bars are redrawn in place and fit the width', () => {
    let out = '';
    let now = 0;
    const p = new UploadProgress({ tty: true, write: (s) => (out += s), clean: lineText, now: () => now, columns: 60 });
    p.handle({ type: 'start', file: 'a-very-long-file-name-of-a-video-shoot.mp4', size: 10 * MiB, contentType: 'video/mp4', url: 'http://s/u' });
    now += 200;
    p.handle({ type: 'progress', file: 'a-very-long-file-name-of-a-video-shoot.mp4', sent: 5 * MiB, size: 10 * MiB });
    expect(out).toContain('\x1b[1A\x1b[2K');
    const f = { ...state(10 * MiB), name: 'x'.repeat(80), sent: 5 * MiB };
    expect(barLine(f, 1000, 60).length).toBeLessThan(60);
    expect(barLine({ ...state(10 * MiB), sent: 5 * MiB }, 1000, 100)).toMatch(/\[(#+)(-+)\] {2}50% 5\.00 MiB\/10\.0 MiB 5\.00 MiB\/s ETA 1 s/);
  });
});

describe('media judgement (the CLI side)', () => {
  it('names the real type of accepted media whatever the name', () => {
    expect(judgeAsset(png(), png().length)).toEqual({ ok: true, contentType: 'image/png' });
    expect(judgeAsset(jpeg(), jpeg().length)).toEqual({ ok: true, contentType: 'image/jpeg' });
    expect(judgeAsset(mp4(), mp4().length)).toEqual({ ok: true, contentType: 'video/mp4' });
  });

  it('says what refused bytes look like', () => {
    expect(judgeAsset(Buffer.from('hello'), 5)).toEqual({ ok: false, looksLike: 'text' });
    expect(judgeAsset(Buffer.from('%PDF-1.7'), 8)).toEqual({ ok: false, looksLike: 'application/pdf' });
    expect(describeBytes(Buffer.from([0x50, 0x4b, 3, 4, 0]))).toBe('a ZIP archive');
    expect(describeBytes(Buffer.alloc(0))).toBe('an empty file');
  });

  it('documents: bytes pick the family, the extension only picks among text types', () => {
    expect(judgeDocument(Buffer.from('%PDF-1.4'), 'x.txt')).toEqual({ ok: true, contentType: 'application/pdf' });
    expect(judgeDocument(Buffer.from('# hi'), 'notes.md')).toEqual({ ok: true, contentType: 'text/markdown' });
    expect(judgeDocument(Buffer.from('a,b\n1,2\n'), 'rows.CSV')).toEqual({ ok: true, contentType: 'text/csv' });
    expect(judgeDocument(Buffer.from('plain'), 'x.pdf')).toEqual({ ok: true, contentType: 'text/plain' });
    expect(judgeDocument(png(), 'logo.pdf')).toEqual({ ok: false, looksLike: 'image/png' });
  });

  it('human sizes', () => {
    expect(humanBytes(100)).toBe('100 B');
    expect(humanBytes(2000)).toBe('1.95 KiB');
    expect(humanBytes(4 * 1024 ** 3)).toBe('4 GiB');
    expect(humanBytes(4 * 1024 ** 3, true)).toBe('4.00 GiB');
  });
});
