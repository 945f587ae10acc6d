// The upload journal: what a re-run relies on.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyFingerprint, UploadJournal, type JournalEntry } from '../../../src/state/upload-journal.js';
import { STORE_FILE } from '../../../src/state/upload-store.js';
import { tempDir } from '../../helpers/temp.js';
import { journalView } from '../../helpers/upload-journal-view.js';

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
    const dir = tempDir('adops-journal-');
    const a = new UploadJournal(dir, { baseUrl: 'http://a', keyFp: 'k1' });
    const slot = await a.open('asset', 10, SHA);
    await slot.put(entry());
    await slot.put(entry({ id: 'ast_2', keyFp: 'k2' }));
    await slot.put(entry({ state: 'ready', sentSha256: SHA }));
    slot.release();
    const doc = await a.open('document:acme', 10, SHA);
    await doc.put(entry({ id: 'doc_1' }));
    doc.release();
    expect(a.peek('asset', 10, SHA).map((e) => [e.id, e.state])).toEqual([
      ['ast_2', 'reserved'],
      ['ast_1', 'ready'],
    ]);
    expect(a.peek('document:acme', 10, SHA).map((e) => e.id)).toEqual(['doc_1']);
    expect(a.peek('asset', 11, SHA)).toEqual([]);
    expect(new UploadJournal(dir, { baseUrl: 'http://b', keyFp: 'k1' }).peek('asset', 10, SHA)).toEqual([]);
    await a.close(); // the run's log folded into the store's files
    const root = join(dir, 'uploads');
    expect(statSync(root).mode & 0o777).toBe(0o700);
    for (const f of files(root)) expect(statSync(join(root, f)).mode & 0o777, f).toBe(0o600);
    expect(files(root).filter((f) => /\.(tmp|lock)$/.test(f))).toEqual([]);
    expect(files(root).join('\n')).not.toContain('hero'); // no path in the key
  });

  it('a second open of the same content waits for the first to release', async () => {
    const dir = tempDir('adops-journal-');
    const j = new UploadJournal(dir, { baseUrl: 's', keyFp: 'k1' });
    const first = await j.open('asset', 1, SHA);
    let waited = false;
    const second = j.open('asset', 1, SHA, { onWait: () => (waited = true) });
    await new Promise((r) => setTimeout(r, 300));
    expect(waited).toBe(true);
    await first.put(entry({ state: 'ready' }));
    first.release();
    const slot = await second;
    expect(slot.entries.map((e) => e.state)).toEqual(['ready']); // read after the first wrote
    slot.release();
  });

  it('an unreadable journal is named, its bytes kept aside, and treated as empty', async () => {
    const dir = tempDir('adops-journal-');
    const notes: string[] = [];
    const j = new UploadJournal(dir, { baseUrl: 's', keyFp: 'k1' }, (m) => notes.push(m));
    const slot = await j.open('asset', 1, SHA);
    await slot.put(entry());
    slot.release();
    await j.close();
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

describe('UploadJournal by size (large files)', () => {
  const SIZE = 20 * 1024 * 1024;
  const OTHER = 'cd'.repeat(32);

  it('an unseen size: entries go to a pending file until settle() names the content; then the size is seen', async () => {
    const dir = tempDir('adops-journal-');
    const j = new UploadJournal(dir, { baseUrl: 's', keyFp: 'k1' });
    const size = await j.lockSize('asset', SIZE);
    expect(size.seen).toBe(false);
    const slot = size.unhashed();
    expect(slot.hashed).toBe(false);
    await slot.put(entry({ filename: 'a.mp4', contentType: 'video/mp4' }));
    // In the run's log, on disk, before the step it announces.
    const log = files(join(dir, 'uploads')).find((f) => f.endsWith('.log.ndjson'))!;
    expect(readFileSync(join(dir, 'uploads', log), 'utf8')).toContain(`/${SIZE}-pending.json"`);
    await slot.settle(SHA);
    await slot.put(entry({ state: 'sent', sentSha256: SHA }));
    slot.release();
    expect(j.peek('asset', SIZE, SHA)).toEqual([expect.objectContaining({ id: 'ast_1', state: 'sent', sentSha256: SHA })]);
    await j.close();
    const left = files(join(dir, 'uploads')).map((f) => f.split('/').pop());
    expect(left).toEqual([STORE_FILE]); // no lock, one store file for the scope
    expect([...journalView(join(dir, 'uploads')).keys()].map((f) => f.split('/').pop())).toEqual([`${SIZE}-${SHA}.json`]); // no pending content
    const again = await j.lockSize('asset', SIZE);
    expect(again.seen).toBe(true);
    again.release();
  });

  it('an unhashed slot whose reservation is dropped leaves no pending file (the size stays unseen)', async () => {
    const dir = tempDir('adops-journal-');
    const j = new UploadJournal(dir, { baseUrl: 's', keyFp: 'k1' });
    const size = await j.lockSize('asset', SIZE);
    const slot = size.unhashed();
    await slot.put(entry());
    await slot.remove('ast_1');
    slot.release();
    await j.close();
    expect(files(join(dir, 'uploads'))).toEqual([]);
    const again = await j.lockSize('asset', SIZE);
    expect(again.seen).toBe(false);
    again.release();
  });

  it("content(sha) brings the size's pending entries, minus those a content file already names", async () => {
    const dir = tempDir('adops-journal-');
    const j = new UploadJournal(dir, { baseUrl: 's', keyFp: 'k1' });
    // A cut run left ast_1 pending; a crash between two writes left ast_2 both pending and in a content file.
    const cut = (await j.lockSize('asset', SIZE)).unhashed();
    await cut.put(entry({ id: 'ast_1' }));
    await cut.put(entry({ id: 'ast_2' }));
    cut.release();
    const other = await j.open('asset', SIZE, OTHER);
    await other.put(entry({ id: 'ast_2', state: 'sent', sentSha256: OTHER }));
    other.release();

    const size = await j.lockSize('asset', SIZE);
    expect(size.seen).toBe(true);
    const slot = await size.content(SHA);
    expect(slot.pending.map((e) => e.id)).toEqual(['ast_1']);
    await slot.adoptPending(slot.pending[0]!);
    expect(slot.entries.map((e) => e.id)).toEqual(['ast_1']);
    expect(slot.pending).toEqual([]);
    slot.release();
    await j.close();
    expect(files(join(dir, 'uploads')).filter((f) => f.endsWith('-pending.json'))).toEqual([]);
    expect(files(join(dir, 'uploads')).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });

  it('a second lock of the same size waits for the first to release', async () => {
    const dir = tempDir('adops-journal-');
    const j = new UploadJournal(dir, { baseUrl: 's', keyFp: 'k1' });
    const first = await j.lockSize('asset', SIZE);
    let waited = false;
    const second = j.lockSize('asset', SIZE, { onWait: () => (waited = true) });
    await new Promise((r) => setTimeout(r, 300));
    expect(waited).toBe(true);
    first.release();
    (await second).release();
  });
});
