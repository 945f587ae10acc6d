// Brands, their advertisers and Personas over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPages, startContextSandbox } from './world.js';
import type { Ctx } from './world.js';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startContextSandbox();
});
afterAll(() => ctx.sb.close());

const brand = (slug: string, extra: Record<string, unknown> = {}) => ctx.call('POST', '/context/brands', { body: { slug, name: `Brand ${slug}`, ...extra } });

describe('brands', () => {
  it('creates with four markdown sections; the list shows which carry prose but not the prose', async () => {
    const created = await brand('acme', {
      description: 'Outdoor gear',
      logoUrl: 'https://cdn.example/acme.png',
      identity: '# Who',
      voice: 'Warm',
      guidelines: '   ',
      messaging: null,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      slug: 'acme',
      name: 'Brand acme',
      description: 'Outdoor gear',
      logoUrl: 'https://cdn.example/acme.png',
      identity: '# Who',
      voice: 'Warm',
      guidelines: null,
      messaging: null,
      revision: 1,
    });
    const list = await ctx.call('GET', '/context/brands');
    const row = list.body.data.find((b: any) => b.slug === 'acme');
    expect(row).toMatchObject({
      name: 'Brand acme',
      description: 'Outdoor gear',
      logoUrl: 'https://cdn.example/acme.png',
      sections: { identity: true, voice: true, guidelines: false, messaging: false },
    });
    for (const prose of ['identity', 'voice', 'guidelines', 'messaging']) expect(row).not.toHaveProperty(prose);
    const got = await ctx.call('GET', '/context/brands/acme');
    expect(got.body).toEqual(created.body);
  });

  it('updates named fields only, with the revision it read', async () => {
    await brand('upd', { identity: 'id', voice: 'v' });
    const res = await ctx.call('PATCH', '/context/brands/upd', { body: { revision: 1, voice: null, messaging: 'Buy now' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ identity: 'id', voice: null, messaging: 'Buy now', revision: 2 });
    const list = await allPages(ctx, '/context/brands');
    expect(list.find((b) => b.slug === 'upd').sections).toEqual({ identity: true, voice: false, guidelines: false, messaging: true });
    const slugChange = await ctx.call('PATCH', '/context/brands/upd', { body: { revision: 2, slug: 'other' } });
    expect(slugChange.status).toBe(400);
    const badLogo = await ctx.call('PATCH', '/context/brands/upd', { body: { revision: 2, logoUrl: 'javascript:alert(1)' } });
    expect(badLogo.status).toBe(400);
  });

  it('lists a Brand as its answer with the prose replaced by `sections`, in its place: same fields, same order', async () => {
    await brand('same', { description: 'd', logoUrl: 'https://cdn.example/s.png', voice: 'Warm', messaging: '  ' });
    const got = (await ctx.call('GET', '/context/brands/same')).body;
    // The order answers have always had (what `-o json` shows): the prose between the logo and the revision.
    expect(Object.keys(got)).toEqual([
      'slug',
      'name',
      'description',
      'logoUrl',
      'identity',
      'voice',
      'guidelines',
      'messaging',
      'revision',
      'createdAt',
      'updatedAt',
    ]);
    const listed = (await allPages(ctx, '/context/brands')).find((b) => b.slug === 'same');
    const prose = ['identity', 'voice', 'guidelines', 'messaging'];
    const sections = Object.fromEntries(prose.map((k) => [k, got[k] !== null]));
    const expected = Object.entries(got).flatMap(([k, v]) => (k === 'identity' ? [['sections', sections]] : prose.includes(k) ? [] : [[k, v]]));
    expect(JSON.stringify(listed)).toBe(JSON.stringify(Object.fromEntries(expected)));
    expect(sections).toEqual({ identity: false, voice: true, guidelines: false, messaging: false });
  });

  it('a PATCH is written in one statement, and tells no Brand (404) from a stale revision (409) as a look-up first did', async () => {
    const created = await brand('one-write', { voice: 'v' });
    const patched = await ctx.call('PATCH', '/context/brands/one-write', { body: { revision: 1, name: 'Renamed' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...created.body, name: 'Renamed', revision: 2, updatedAt: patched.body.updatedAt });
    expect((await ctx.call('GET', '/context/brands/one-write')).body).toEqual(patched.body);
    const stale = await ctx.call('PATCH', '/context/brands/one-write', { body: { revision: 1, name: 'Lost' } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'revision_mismatch', currentRevision: 2 });
    const missing = await ctx.call('PATCH', '/context/brands/no-such-brand', { body: { revision: 1, name: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'not_found', message: 'No Brand with this slug in your organization.' });
    // Neither refusal wrote anything.
    expect((await ctx.call('GET', '/context/brands/one-write')).body).toEqual(patched.body);
  });

  it('validates slugs (422) and keeps them unique per organization (409 with slug)', async () => {
    expect((await brand('Not OK')).body.error).toBe('invalid_slug');
    await brand('dup');
    const dup = await brand('dup');
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'slug_conflict', slug: 'dup' });
    expect((await ctx.call('POST', '/context/brands', { key: ctx.other, body: { slug: 'dup', name: 'theirs' } })).status).toBe(201);
  });

  it("answers 404 for another organization's Brand on every path under it", async () => {
    await brand('private', { identity: 'secret' });
    for (const [method, path, body] of [
      ['GET', '/context/brands/private'],
      ['PATCH', '/context/brands/private', { revision: 1, name: 'x' }],
      ['DELETE', '/context/brands/private'],
      ['GET', '/context/brands/private/advertisers'],
      ['POST', '/context/brands/private/advertisers', { advertiserId: 'acc_other_a' }],
      ['GET', '/context/brands/private/personas'],
      ['POST', '/context/brands/private/personas', { slug: 'p', name: 'p' }],
      ['GET', '/context/brands/private/documents'],
      ['POST', '/context/brands/private/documents', { filename: 'a.pdf', contentType: 'application/pdf' }],
    ] as const) {
      const res = await ctx.call(method, path, { key: ctx.other, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    expect((await ctx.call('GET', '/context/brands/private')).body.identity).toBe('secret');
  });
});

describe('brand advertisers', () => {
  it('attaches owned advertisers (again: 200, unchanged), lists them, detaches', async () => {
    await brand('adv');
    const first = await ctx.call('POST', '/context/brands/adv/advertisers', { body: { advertiserId: 'acc_ctx_a' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ advertiserId: 'acc_ctx_a', provider: 'provider_a', currency: 'USD', attachedAt: expect.any(Number) });
    const again = await ctx.call('POST', '/context/brands/adv/advertisers', { body: { advertiserId: 'acc_ctx_a' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    await ctx.call('POST', '/context/brands/adv/advertisers', { body: { advertiserId: 'acc_ctx_c' } });
    const list = await ctx.call('GET', '/context/brands/adv/advertisers');
    expect(list.body.data.map((a: any) => a.advertiserId)).toEqual(['acc_ctx_c', 'acc_ctx_a']);
    const page = await ctx.call('GET', '/context/brands/adv/advertisers', { query: { limit: 1 } });
    expect(page.body.nextCursor).toEqual(expect.any(String));
    await brand('adv2');
    const foreignCursor = await ctx.call('GET', '/context/brands/adv2/advertisers', { query: { limit: 1, cursor: page.body.nextCursor } });
    expect(foreignCursor.body.error).toBe('invalid_cursor');
    const detached = await ctx.call('DELETE', '/context/brands/adv/advertisers/acc_ctx_a');
    expect(detached.status).toBe(200);
    expect(detached.body).toEqual({ deleted: true, slug: 'adv', advertiserId: 'acc_ctx_a' });
    expect((await ctx.call('DELETE', '/context/brands/adv/advertisers/acc_ctx_a')).status).toBe(404);
    expect((await ctx.call('GET', '/context/brands/adv/advertisers')).body.data.map((a: any) => a.advertiserId)).toEqual(['acc_ctx_c']);
  });

  it('refuses an advertiser that is not ours with 422 advertiser_not_owned (another org’s or nonexistent alike)', async () => {
    await brand('adv-no');
    for (const advertiserId of ['acc_other_a', 'acc_does_not_exist']) {
      const res = await ctx.call('POST', '/context/brands/adv-no/advertisers', { body: { advertiserId } });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('advertiser_not_owned');
    }
    expect((await ctx.call('POST', '/context/brands/adv-no/advertisers', { body: { advertiserId: 'nope' } })).status).toBe(400);
  });
});

describe('personas', () => {
  it('creates per brand; two brands may hold the same persona slug; one brand may not', async () => {
    await brand('p-one');
    await brand('p-two');
    const a = await ctx.call('POST', '/context/brands/p-one/personas', {
      body: { slug: 'hiker', name: 'Hiker', goals: ['summit'], painPoints: ['blisters'], channels: ['provider_a'], demographics: '25–40' },
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      brandSlug: 'p-one',
      slug: 'hiker',
      name: 'Hiker',
      description: '',
      demographics: '25–40',
      goals: ['summit'],
      painPoints: ['blisters'],
      channels: ['provider_a'],
      revision: 1,
    });
    const b = await ctx.call('POST', '/context/brands/p-two/personas', { body: { slug: 'hiker', name: 'Other hiker' } });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ brandSlug: 'p-two', goals: [], painPoints: [], channels: [], demographics: null });
    const dup = await ctx.call('POST', '/context/brands/p-one/personas', { body: { slug: 'hiker', name: 'again' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'slug_conflict', slug: 'hiker' });
    expect((await ctx.call('POST', '/context/brands/p-one/personas', { body: { slug: 'Bad_Slug', name: 'x' } })).body.error).toBe('invalid_slug');
    expect((await ctx.call('GET', '/context/brands/p-one/personas/hiker')).body.name).toBe('Hiker');
    expect((await ctx.call('GET', '/context/brands/p-two/personas/hiker')).body.name).toBe('Other hiker');
    expect((await ctx.call('GET', '/context/brands/p-none/personas/hiker')).status).toBe(404);
  });

  it('lists, updates with revision, deletes', async () => {
    await brand('p-crud');
    for (const s of ['a', 'b', 'c']) await ctx.call('POST', '/context/brands/p-crud/personas', { body: { slug: s, name: s } });
    const list = await ctx.call('GET', '/context/brands/p-crud/personas', { query: { limit: 2 } });
    expect(list.body.data.map((p: any) => p.slug)).toEqual(['c', 'b']);
    expect((await allPages(ctx, '/context/brands/p-crud/personas', { limit: 2 })).map((p) => p.slug)).toEqual(['c', 'b', 'a']);
    const upd = await ctx.call('PATCH', '/context/brands/p-crud/personas/a', { body: { revision: 1, goals: ['x', 'y'] } });
    expect(upd.body).toMatchObject({ goals: ['x', 'y'], revision: 2 });
    const stale = await ctx.call('PATCH', '/context/brands/p-crud/personas/a', { body: { revision: 1, goals: [] } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'revision_mismatch', currentRevision: 2 });
    const del = await ctx.call('DELETE', '/context/brands/p-crud/personas/a');
    expect(del.body).toEqual({ deleted: true, brandSlug: 'p-crud', slug: 'a' });
    expect((await ctx.call('GET', '/context/brands/p-crud/personas/a')).status).toBe(404);
  });

  it('goes with its Brand: deleting a Brand deletes its personas; a new Brand of that slug starts empty', async () => {
    await brand('doomed');
    await ctx.call('POST', '/context/brands/doomed/personas', { body: { slug: 'p', name: 'p' } });
    await ctx.call('POST', '/context/brands/doomed/advertisers', { body: { advertiserId: 'acc_ctx_a' } });
    const stale = await ctx.call('DELETE', '/context/brands/doomed', { query: { revision: 5 } });
    expect(stale.status).toBe(409);
    expect(stale.body.currentRevision).toBe(1);
    const del = await ctx.call('DELETE', '/context/brands/doomed', { query: { revision: 1 } });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true, slug: 'doomed', personasDeleted: 1, documentsDeleted: 0 });
    expect((await ctx.call('GET', '/context/brands/doomed')).status).toBe(404);
    await brand('doomed');
    expect((await ctx.call('GET', '/context/brands/doomed/personas')).body.data).toEqual([]);
    expect((await ctx.call('GET', '/context/brands/doomed/advertisers')).body.data).toEqual([]);
  });
});
