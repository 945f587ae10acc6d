// The upload journal and the hash gate: what a re-run relies on.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { hashFile, hashGate, keyFingerprint, UploadJournal, type JournalEntry } from '../../../src/flows/upload-journal.js';

const SHA = 'ab'.repeat(32);
const entry = (over: Partial<JournalEntry> = {}): JournalEntry => ({
  id: 'ast_1',
  keyFp: 'k1',
  state: 'reserved',
  uploadUrl: 'http://storage/u/tok',
  uploadExpiresAt: 5000,
  updatedAt: 1,
  ...over,
});

/** Every file under dir, recursively, relative. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
}

describe('UploadJournal', () => {
  it('keys entries by service, target, size and SHA-256 (not by path); private modes; no lock or temp file left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adops-journal-'));
    const a = new UploadJournal(dir, 'http://a', 'k1');
    const slot = await a.open('asset', 10, SHA);
    slot.put(entry());
    slot.put(entry({ id: 'ast_2', keyFp: 'k2' }));
    slot.put(entry({ state: 'ready', sentSha256: SHA }));
    slot.release();
    const doc = await a.open('document:acme', 10, SHA);
    doc.put(entry({ id: 'doc_1' }));
    doc.release();
    expect(a.peek('asset', 10, SHA).map((e) => [e.id, e.state])).toEqual([
      ['ast_2', 'reserved'],
      ['ast_1', 'ready'],
    ]);
    expect(a.peek('document:acme', 10, SHA).map((e) => e.id)).toEqual(['doc_1']);
    expect(a.peek('asset', 11, SHA)).toEqual([]);
    expect(new UploadJournal(dir, 'http://b', 'k1').peek('asset', 10, SHA)).toEqual([]);
    const root = join(dir, 'uploads');
    expect(statSync(root).mode & 0o777).toBe(0o700);
    for (const f of files(root)) expect(statSync(join(root, f)).mode & 0o777, f).toBe(0o600);
    expect(files(root).filter((f) => /\.(tmp|lock)$/.test(f))).toEqual([]);
    expect(files(root).join('\n')).not.toContain('hero'); // no path in the key
  });

  it('a second open of the same content waits for the first to release', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adops-journal-'));
    const j = new UploadJournal(dir, 's', 'k1');
    const first = await j.open('asset', 1, SHA);
    let waited = false;
    const second = j.open('asset', 1, SHA, { onWait: () => (waited = true) });
    await new Promise((r) => setTimeout(r, 300));
    expect(waited).toBe(true);
    first.put(entry({ state: 'ready' }));
    first.release();
    const slot = await second;
    expect(slot.entries.map((e) => e.state)).toEqual(['ready']); // read after the first wrote
    slot.release();
  });

  it('an unreadable journal is named, its bytes kept aside, and treated as empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adops-journal-'));
    const notes: string[] = [];
    const j = new UploadJournal(dir, 's', 'k1', (m) => notes.push(m));
    const slot = await j.open('asset', 1, SHA);
    slot.put(entry());
    slot.release();
    const root = join(dir, 'uploads');
    const file = join(
      root,
      files(root).find((f) => f.endsWith('.json'))!,
    );
    writeFileSync(file, '{"v":2,"target":"asset","entr'); // cut short
    const again = await j.open('asset', 1, SHA);
    expect(again.entries).toEqual([]);
    again.release();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(`the upload journal ${file} could not be read`);
    const aside = files(root).find((f) => f.includes('.corrupt-'))!;
    expect(readFileSync(join(root, aside), 'utf8')).toBe('{"v":2,"target":"asset","entr');
  });

  it('a key fingerprint tells keys apart and does not contain the key', () => {
    expect(keyFingerprint('acr_a')).not.toBe(keyFingerprint('acr_b'));
    expect(keyFingerprint('acr_a')).toMatch(/^[0-9a-f]{16}$/);
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
    expect(await hashFile(p)).toBe(
      createHash('sha256')
        .update(Buffer.alloc(3 * 1024 * 1024, 7))
        .digest('hex'),
    );
  });
});
