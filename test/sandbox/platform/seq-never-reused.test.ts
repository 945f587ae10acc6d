// Migration 010 (src/sandbox/store/schema/seq-high-water.ts): after 009 took
// AUTOINCREMENT away, a written table's seq is still never used twice. The
// cases are the ones reuse broke: a cursor handed out before the newest rows
// were deleted and another created, and a write by a seq resolved before a
// delete (it must find nothing, not the new row). An INSERT that forgets
// nextSeq fails instead of reusing a number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/sandbox/store/db.js';
import { SEQ_TABLES } from '../../../src/sandbox/store/schema/seq-rebuild.js';
import { writeWithRevision } from '../../../src/sandbox/models/context/revision.js';
import { startContextSandbox } from '../context/world.js';
import type { Ctx } from '../context/world.js';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startContextSandbox();
});
afterAll(() => ctx.sb.close());

const seqOf = (slug: string) => Number(ctx.sb.services.db.prepare<[string], number>(`SELECT seq FROM context_skills WHERE slug = ?`).pluck().get(slug));

describe('migration 010: seq never reused', () => {
  it('a cursor issued before the newest rows were deleted and one created pages on over the rows it had not shown, without the new one', async () => {
    for (const slug of ['walk-1', 'walk-2', 'walk-3', 'walk-4'])
      expect((await ctx.call('POST', '/context/skills', { body: { slug, name: slug } })).status).toBe(201);
    const first = await ctx.call('GET', '/context/skills', { query: { limit: 2 } });
    expect(first.body.data.map((s: { slug: string }) => s.slug)).toEqual(['walk-4', 'walk-3']);
    const walk2 = seqOf('walk-2');
    for (const slug of ['walk-4', 'walk-3', 'walk-2']) expect((await ctx.call('DELETE', `/context/skills/${slug}`)).status).toBe(200);
    expect((await ctx.call('POST', '/context/skills', { body: { slug: 'walk-new', name: 'new' } })).status).toBe(201);
    // Reused, walk-new would have taken walk-2's number, below the cursor, and shown up in the walk.
    expect(seqOf('walk-new')).toBeGreaterThan(walk2 + 2);
    const rest = await ctx.call('GET', '/context/skills', { query: { limit: 2, cursor: first.body.nextCursor } });
    expect(rest.body.data.map((s: { slug: string }) => s.slug)).toEqual(['walk-1']);
    expect(rest.body.nextCursor).toBeUndefined();
  });

  it('a write by a seq resolved before the row was deleted finds nothing, not the row created after', async () => {
    expect((await ctx.call('POST', '/context/skills', { body: { slug: 'gone', name: 'gone' } })).status).toBe(201);
    const stale = seqOf('gone');
    expect((await ctx.call('DELETE', '/context/skills/gone')).status).toBe(200);
    expect((await ctx.call('POST', '/context/skills', { body: { slug: 'came', name: 'came' }, key: ctx.other })).status).toBe(201);
    expect(() => writeWithRevision({ db: ctx.sb.services.db, table: 'context_skills', seq: stale, expected: 1, set: { name: 'hijacked' }, now: 1 })).toThrow(
      /deleted meanwhile/,
    );
    expect((await ctx.call('GET', '/context/skills/came', { key: ctx.other })).body.name).toBe('came');
  });

  it('every written table keeps a high water on delete, and an INSERT without nextSeq that would reuse a number is refused', () => {
    const db = openDatabase(':memory:');
    const triggers = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger'`).pluck().all().map(String);
    for (const t of SEQ_TABLES) expect(triggers, t).toEqual(expect.arrayContaining([`seq_high_water_${t}`, `seq_never_reused_${t}`]));
    db.exec(
      `INSERT INTO context_skills (org_id, slug, name, source, created_at, updated_at) VALUES ('o', 'a', 'A', 'custom', 1, 1), ('o', 'b', 'B', 'custom', 1, 1)`,
    );
    db.exec(`DELETE FROM context_skills WHERE slug = 'a'`); // not the newest: nothing to remember
    expect(db.prepare(`SELECT count(*) FROM seq_high_water`).pluck().get()).toBe(0);
    db.exec(`DELETE FROM context_skills WHERE slug = 'b'`);
    expect(db.prepare(`SELECT seq FROM seq_high_water WHERE name = 'context_skills'`).pluck().get()).toBe(2);
    expect(() => db.exec(`INSERT INTO context_skills (org_id, slug, name, source, created_at, updated_at) VALUES ('o', 'c', 'C', 'custom', 1, 1)`)).toThrow(
      /would be reused/,
    );
    db.close();
  });
});
