// The upload journal and the hash gate: what a re-run relies on.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { hashFile, hashGate, sameFile, UploadJournal, type JournalEntry } from '../../../src/flows/upload-journal.js';

const entry = (over: Partial<JournalEntry> = {}): JournalEntry => ({
  v: 1, target: 'asset', path: '/data/hero.mp4', size: 10, mtimeMs: 1000, id: 'ast_1', state: 'reserved',
  uploadUrl: 'http://storage/u/tok', uploadExpiresAt: 5000, updatedAt: 1, ...over,
});

describe('UploadJournal', () => {
  it('keeps one entry per service scope, target and path; private modes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'adops-journal-'));
    const a = new UploadJournal(dir, 'http://a\ndefault');
    const b = new UploadJournal(dir, 'http://b\ndefault');
    a.put(entry());
    a.put(entry({ target: 'document:acme', id: 'doc_1' }));
    expect(a.get('asset', '/data/hero.mp4')?.id).toBe('ast_1');
    expect(a.get('document:acme', '/data/hero.mp4')?.id).toBe('doc_1');
    expect(b.get('asset', '/data/hero.mp4')).toBeUndefined();
    a.put(entry({ state: 'ready', sha256: 'ab' }));
    expect(a.get('asset', '/data/hero.mp4')).toMatchObject({ state: 'ready', sha256: 'ab' });
    expect(statSync(join(dir, 'uploads')).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(join(dir, 'uploads'))) expect(statSync(join(dir, 'uploads', f)).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'uploads')).some((f) => f.endsWith('.tmp'))).toBe(false);
    a.remove('asset', '/data/hero.mp4');
    expect(a.get('asset', '/data/hero.mp4')).toBeUndefined();
  });

  it('an unreadable entry means nothing to resume', () => {
    const dir = mkdtempSync(join(tmpdir(), 'adops-journal-'));
    const j = new UploadJournal(dir, 's');
    j.put(entry());
    const f = readdirSync(join(dir, 'uploads'))[0]!;
    writeFileSync(join(dir, 'uploads', f), '{not json');
    expect(j.get('asset', '/data/hero.mp4')).toBeUndefined();
  });

  it('trusts an entry only for the same path, size and mtime', () => {
    expect(sameFile(entry(), { path: '/data/hero.mp4', size: 10, mtimeMs: 1000 })).toBe(true);
    expect(sameFile(entry(), { path: '/data/hero.mp4', size: 11, mtimeMs: 1000 })).toBe(false);
    expect(sameFile(entry(), { path: '/data/hero.mp4', size: 10, mtimeMs: 1001 })).toBe(false);
  });
});

describe('hashGate', () => {
  it('passes every byte through and records the digest before the last chunk leaves', async () => {
    const chunks = [Buffer.from('one-'), Buffer.from('two-'), Buffer.from('three')];
    const seen: string[] = [];
    let digest: string | undefined;
    let bytesBeforeDigest = -1;
    let received = 0;
    await pipeline(
      Readable.from(chunks),
      hashGate((d) => {
        digest = d;
        bytesBeforeDigest = received;
      }),
      new Writable({
        write(c: Buffer, _e, done) {
          received += c.length;
          seen.push(c.toString());
          done();
        },
      }),
    );
    expect(seen.join('')).toBe('one-two-three');
    expect(digest).toBe(createHash('sha256').update('one-two-three').digest('hex'));
    // The last chunk ("three") was still held back when the digest was recorded.
    expect(bytesBeforeDigest).toBe('one-two-'.length);
  });

  it('hashFile streams a file to the same digest', async () => {
    const p = join(mkdtempSync(join(tmpdir(), 'adops-hash-')), 'f.bin');
    writeFileSync(p, Buffer.alloc(3 * 1024 * 1024, 7));
    expect(await hashFile(p)).toBe(createHash('sha256').update(Buffer.alloc(3 * 1024 * 1024, 7)).digest('hex'));
  });
});
