// Skills and the Skill Catalog over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SKILL_CATALOG } from '../../../src/sandbox/models/context/catalog.js';
import { allPages, startContextSandbox } from './world.js';
import type { Ctx } from './world.js';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startContextSandbox();
});
afterAll(() => ctx.sb.close());

describe('skills', () => {
  it('creates, gets, lists (without body), updates with the revision it read, and deletes', async () => {
    const created = await ctx.call('POST', '/context/skills', { body: { slug: 'pacing', name: 'Pacing', body: '# Pace\nsteps' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      slug: 'pacing',
      name: 'Pacing',
      description: '',
      body: '# Pace\nsteps',
      source: 'custom',
      catalogSlug: null,
      catalogVersion: null,
      importedAt: null,
      revision: 1,
    });
    expect(typeof created.body.createdAt).toBe('number');

    const got = await ctx.call('GET', '/context/skills/pacing');
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const listed = await ctx.call('GET', '/context/skills');
    expect(listed.status).toBe(200);
    const row = listed.body.data.find((s: any) => s.slug === 'pacing');
    expect(row).toBeDefined();
    expect(row).not.toHaveProperty('body');

    const updated = await ctx.call('PATCH', '/context/skills/pacing', { body: { revision: 1, description: 'Daily pacing' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ description: 'Daily pacing', body: '# Pace\nsteps', revision: 2 });

    const deleted = await ctx.call('DELETE', '/context/skills/pacing');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, slug: 'pacing' });
    expect((await ctx.call('GET', '/context/skills/pacing')).status).toBe(404);
  });

  it('answers a Skill as exactly its list row plus the body: no field of the summary missing or extra', async () => {
    const created = await ctx.call('POST', '/context/skills', { body: { slug: 'same-fields', name: 'Same', description: 'd', body: 'b' } });
    expect(created.status).toBe(201);
    const listed = await allPages(ctx, '/context/skills');
    const row = listed.find((s: any) => s.slug === 'same-fields');
    expect(created.body).toEqual({ ...row, body: 'b' });
    expect((await ctx.call('GET', '/context/skills/same-fields')).body).toEqual({ ...row, body: 'b' });
  });

  it('refuses a bad slug with 422 invalid_slug and a taken one with 409 slug_conflict naming it', async () => {
    for (const slug of ['', 'Upper', 'has space', '-lead', 'trail-', 'double--hyphen', 'x'.repeat(65), 'ünï']) {
      const res = await ctx.call('POST', '/context/skills', { body: { slug, name: 'n' } });
      expect(res.status, slug).toBe(422);
      expect(res.body.error).toBe('invalid_slug');
    }
    expect((await ctx.call('POST', '/context/skills', { body: { slug: 'a'.repeat(64), name: 'n' } })).status).toBe(201);
    expect((await ctx.call('POST', '/context/skills', { body: { slug: 'taken-1', name: 'n' } })).status).toBe(201);
    const again = await ctx.call('POST', '/context/skills', { body: { slug: 'taken-1', name: 'other' } });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'slug_conflict', slug: 'taken-1' });
  });

  it('answers 400 invalid_request for a wrong shape, naming the fields', async () => {
    const res = await ctx.call('POST', '/context/skills', { body: { slug: 12, name: 'n', extra: true } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    const paths = res.body.issues.map((i: any) => i.path);
    expect(paths).toContain('/slug');
    const patch = await ctx.call('PATCH', '/context/skills/taken-1', { body: { name: 'no revision' } });
    expect(patch.status).toBe(400);
    expect(patch.body.issues.map((i: any) => i.path)).toContain('/revision');
  });

  it('refuses a stale revision with 409 revision_mismatch and currentRevision, changing nothing', async () => {
    await ctx.call('POST', '/context/skills', { body: { slug: 'stale', name: 'v1' } });
    expect((await ctx.call('PATCH', '/context/skills/stale', { body: { revision: 1, name: 'v2' } })).status).toBe(200);
    const stale = await ctx.call('PATCH', '/context/skills/stale', { body: { revision: 1, name: 'v3' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'revision_mismatch', currentRevision: 2 });
    expect((await ctx.call('GET', '/context/skills/stale')).body).toMatchObject({ name: 'v2', revision: 2 });
    const staleDelete = await ctx.call('DELETE', '/context/skills/stale', { query: { revision: 1 } });
    expect(staleDelete.status).toBe(409);
    expect(staleDelete.body.currentRevision).toBe(2);
    expect((await ctx.call('GET', '/context/skills/stale')).status).toBe(200);
    expect((await ctx.call('DELETE', '/context/skills/stale', { query: { revision: 2 } })).status).toBe(200);
  });

  it('pages the list newest first with cursors bound to the query', async () => {
    for (let i = 0; i < 7; i++) await ctx.call('POST', '/context/skills', { body: { slug: `page-${i}`, name: `p${i}` } });
    const first = await ctx.call('GET', '/context/skills', { query: { limit: 3 } });
    expect(first.body.data).toHaveLength(3);
    expect(first.body.data.map((s: any) => s.slug)).toEqual(['page-6', 'page-5', 'page-4']);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const all = await allPages(ctx, '/context/skills', { limit: 3 });
    expect(new Set(all.map((s) => s.slug)).size).toBe(all.length);
    expect(all.map((s) => s.slug)).toContain('page-0');
    const otherQuery = await ctx.call('GET', '/context/skills', { query: { limit: 3, source: 'custom', cursor: first.body.nextCursor } });
    expect(otherQuery.status).toBe(400);
    expect(otherQuery.body.error).toBe('invalid_cursor');
    const garbage = await ctx.call('GET', '/context/skills', { query: { cursor: 'nope' } });
    expect(garbage.body.error).toBe('invalid_cursor');
    expect((await ctx.call('GET', '/context/skills', { query: { limit: 501 } })).status).toBe(400);
    expect((await ctx.call('GET', '/context/skills', { query: { limit: 0 } })).status).toBe(400);
  });

  it("hides another organization's Skills (404, never 403) and keeps slugs per organization", async () => {
    await ctx.call('POST', '/context/skills', { body: { slug: 'ours', name: 'ours' } });
    expect((await ctx.call('GET', '/context/skills/ours', { key: ctx.other })).status).toBe(404);
    expect((await ctx.call('PATCH', '/context/skills/ours', { key: ctx.other, body: { revision: 1, name: 'x' } })).status).toBe(404);
    expect((await ctx.call('DELETE', '/context/skills/ours', { key: ctx.other })).status).toBe(404);
    const theirList = await ctx.call('GET', '/context/skills', { key: ctx.other });
    expect(theirList.body.data).toEqual([]);
    expect((await ctx.call('POST', '/context/skills', { key: ctx.other, body: { slug: 'ours', name: 'theirs' } })).status).toBe(201);
    expect((await ctx.call('GET', '/context/skills/ours')).body.name).toBe('ours');
  });
});

describe('skill catalog', () => {
  it('lists the catalog with versions and pages it', async () => {
    const res = await ctx.call('GET', '/context/skill-catalog');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(5);
    expect(res.body.data[0]).toMatchObject({ catalogSlug: expect.any(String), version: expect.any(String), body: expect.any(String) });
    const paged = await allPages(ctx, '/context/skill-catalog', { limit: 2 });
    expect(paged.map((c) => c.catalogSlug)).toEqual(res.body.data.map((c: any) => c.catalogSlug));
    expect((await ctx.call('GET', '/context/skill-catalog', { query: { cursor: 'x.y' } })).body.error).toBe('invalid_cursor');
  });

  it('imports an entry as a catalog Skill (default slug, or a chosen one; taken → 409)', async () => {
    const entry = DEFAULT_SKILL_CATALOG[0]!;
    const imported = await ctx.call('POST', `/context/skill-catalog/${entry.catalogSlug}/import`);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({
      slug: entry.catalogSlug,
      source: 'catalog',
      catalogSlug: entry.catalogSlug,
      catalogVersion: entry.version,
      body: entry.body,
      revision: 1,
    });
    expect(imported.body.importedAt).toEqual(expect.any(Number));
    const again = await ctx.call('POST', `/context/skill-catalog/${entry.catalogSlug}/import`, { body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'slug_conflict', slug: entry.catalogSlug });
    const named = await ctx.call('POST', `/context/skill-catalog/${entry.catalogSlug}/import`, { body: { slug: 'my-copy' } });
    expect(named.status).toBe(201);
    expect(named.body.slug).toBe('my-copy');
    expect((await ctx.call('POST', `/context/skill-catalog/${entry.catalogSlug}/import`, { body: { slug: 'Bad Slug' } })).body.error).toBe('invalid_slug');
    expect((await ctx.call('POST', '/context/skill-catalog/no-such-entry/import')).status).toBe(404);
  });

  it('re-imports a catalog Skill to the current version, overwriting local edits; a custom Skill → 422 not_imported', async () => {
    const entry = DEFAULT_SKILL_CATALOG[1]!;
    await ctx.call('POST', `/context/skill-catalog/${entry.catalogSlug}/import`, { body: { slug: 'fatigue' } });
    await ctx.call('PATCH', '/context/skills/fatigue', { body: { revision: 1, body: 'local edit' } });
    ctx.sb.services.settings.skillCatalog = DEFAULT_SKILL_CATALOG.map((c) =>
      c.catalogSlug === entry.catalogSlug ? { ...c, version: '9.0.0', body: 'new playbook' } : c,
    );
    try {
      const stale = await ctx.call('POST', '/context/skills/fatigue/re-import', { body: { revision: 1 } });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ error: 'revision_mismatch', currentRevision: 2 });
      const re = await ctx.call('POST', '/context/skills/fatigue/re-import', { body: { revision: 2 } });
      expect(re.status).toBe(200);
      expect(re.body).toMatchObject({ slug: 'fatigue', catalogVersion: '9.0.0', body: 'new playbook', revision: 3 });
      const noBody = await ctx.call('POST', '/context/skills/fatigue/re-import');
      expect(noBody.status).toBe(200);
      expect(noBody.body.revision).toBe(4);
    } finally {
      delete ctx.sb.services.settings.skillCatalog;
    }
    await ctx.call('POST', '/context/skills', { body: { slug: 'handmade', name: 'h' } });
    const custom = await ctx.call('POST', '/context/skills/handmade/re-import');
    expect(custom.status).toBe(422);
    expect(custom.body.error).toBe('not_imported');
    expect((await ctx.call('POST', '/context/skills/nope/re-import')).status).toBe(404);
  });

  it('says when the catalog dropped the entry a Skill came from (422 catalog_entry_missing)', async () => {
    await ctx.call('POST', '/context/skill-catalog/naming-conventions/import', { body: { slug: 'names' } });
    ctx.sb.services.settings.skillCatalog = DEFAULT_SKILL_CATALOG.filter((c) => c.catalogSlug !== 'naming-conventions');
    try {
      const res = await ctx.call('POST', '/context/skills/names/re-import');
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('catalog_entry_missing');
    } finally {
      delete ctx.sb.services.settings.skillCatalog;
    }
  });
});
