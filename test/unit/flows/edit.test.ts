// The revision-safe edit flow against an in-memory row store that answers
// like the service: a write with a stale revision is 409 revision_mismatch
// with currentRevision, and nothing changes.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/errors.js';
import { applyRevisionSafe, sameValue, type Revisioned } from '../../../src/flows/edit.js';

function store(initial: Record<string, unknown>) {
  let row: Revisioned = { ...initial, revision: 1 };
  const writes: Array<Record<string, unknown>> = [];
  /** Runs once before the next write lands: another writer's change. */
  let race: Array<Record<string, unknown>> = [];
  return {
    get row() {
      return row;
    },
    writes,
    raceWith(...changes: Array<Record<string, unknown>>) {
      race = changes;
    },
    read: async () => ({ ...row }),
    write: async (changes: Record<string, unknown>, revision: number) => {
      const theirs = race.shift();
      if (theirs) row = { ...row, ...theirs, revision: row.revision + 1 };
      writes.push({ ...changes, revision });
      if (revision !== row.revision) {
        throw new ApiError({ status: 409, body: { error: 'revision_mismatch', message: 'stale', currentRevision: row.revision }, method: 'PATCH', path: '/x' });
      }
      row = { ...row, ...changes, revision: row.revision + 1 };
      return { ...row };
    },
  };
}

describe('applyRevisionSafe', () => {
  it('writes with the revision it read', async () => {
    const s = store({ name: 'a', voice: null });
    const out = await applyRevisionSafe({ read: s.read, write: s.write, changes: { name: 'b' } });
    expect(out).toMatchObject({ kind: 'saved', wrote: true, attempts: 1 });
    expect(s.writes).toEqual([{ name: 'b', revision: 1 }]);
  });

  it('another writer changed a different field: re-applies on the new revision, both changes land', async () => {
    const s = store({ name: 'a', voice: null });
    s.raceWith({ voice: 'theirs' });
    const retries: string[][] = [];
    const out = await applyRevisionSafe({ read: s.read, write: s.write, changes: { name: 'ours' }, onRetry: (r) => retries.push(r.theirs) });
    expect(out).toMatchObject({ kind: 'saved', wrote: true, attempts: 2 });
    expect(s.row).toMatchObject({ name: 'ours', voice: 'theirs', revision: 3 });
    expect(retries).toEqual([['voice']]);
  });

  it('another writer changed the same field: stops with both values, writes nothing more', async () => {
    const s = store({ name: 'a' });
    s.raceWith({ name: 'theirs' });
    const out = await applyRevisionSafe({ read: s.read, write: s.write, changes: { name: 'ours' } });
    expect(out).toMatchObject({ kind: 'conflict', conflicts: [{ field: 'name', base: 'a', theirs: 'theirs', yours: 'ours' }] });
    expect(s.row.name).toBe('theirs');
    expect(s.writes).toHaveLength(1);
  });

  it('with force, yours lands over theirs and the overwritten value is reported', async () => {
    const s = store({ name: 'a' });
    s.raceWith({ name: 'theirs' });
    const out = await applyRevisionSafe({ read: s.read, write: s.write, changes: { name: 'ours' }, force: true });
    expect(out).toMatchObject({ kind: 'saved', overwritten: [{ field: 'name', theirs: 'theirs' }] });
    expect(s.row.name).toBe('ours');
  });

  it('they set our value: nothing left to write', async () => {
    const s = store({ name: 'a' });
    s.raceWith({ name: 'ours' });
    const out = await applyRevisionSafe({ read: s.read, write: s.write, changes: { name: 'ours' } });
    expect(out).toMatchObject({ kind: 'saved', wrote: false });
    expect(s.writes).toHaveLength(1);
  });

  it('compares against the row the change was made on (an editor buffer), not a fresh read', async () => {
    const s = store({ name: 'a', body: 'x' });
    const base = await s.read();
    // Someone writes body while the editor is open; our edit changes body too.
    await s.write({ body: 'theirs' }, 1);
    const out = await applyRevisionSafe({ read: s.read, write: s.write, changes: { body: 'ours' }, base });
    expect(out).toMatchObject({ kind: 'conflict', conflicts: [{ field: 'body', base: 'x', theirs: 'theirs', yours: 'ours' }] });
  });

  it('a value equal to what the row holds is not sent', async () => {
    const s = store({ name: 'a', voice: null });
    const out = await applyRevisionSafe({ read: s.read, write: s.write, changes: { name: 'a', voice: '  ' } });
    expect(out).toMatchObject({ kind: 'saved', wrote: false, attempts: 0 });
    expect(s.writes).toEqual([]);
  });

  it('gives up after maxAttempts when the row keeps changing', async () => {
    const s = store({ name: 'a', n: 0 });
    s.raceWith({ n: 1 }, { n: 2 }, { n: 3 });
    const out = await applyRevisionSafe({ read: s.read, write: s.write, changes: { name: 'b' }, maxAttempts: 3 });
    expect(out).toEqual({ kind: 'exhausted', attempts: 3, currentRevision: 4 });
    expect(s.row.name).toBe('a');
  });

  it('other failures pass through', async () => {
    const s = store({ name: 'a' });
    const boom = new ApiError({ status: 409, body: { error: 'plan_frozen', message: 'frozen' }, method: 'PATCH', path: '/x' });
    await expect(applyRevisionSafe({ read: s.read, write: async () => Promise.reject(boom), changes: { name: 'b' } })).rejects.toBe(boom);
  });

  it('blank text and null are the same value; lists compare by content', () => {
    expect(sameValue(null, '')).toBe(true);
    expect(sameValue(['a'], ['a'])).toBe(true);
    expect(sameValue(['a'], ['b'])).toBe(false);
  });
});
