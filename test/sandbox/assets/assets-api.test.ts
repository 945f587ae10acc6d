// Get, list (cursors), rename (revision rule, racing writers), delete, register,
// and the organization boundary of the Assets API, over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalWorld, startTestSandbox, withAdvertiser, withKey, withOrganization } from '../../helpers/sandbox.js';
import type { TestSandbox } from '../../helpers/sandbox.js';
import { gif, mp4, png } from '../../unit/uploads/media-samples.js';
import { reserve, storedFiles, upload } from './upload-helpers.js';

let sb: TestSandbox;
let otherKey: string;
beforeAll(async () => {
  let world = withOrganization(minimalWorld(), 'org_other');
  for (const [id, provider] of [
    ['acc_a', 'provider_a'],
    ['acc_b', 'provider_b'],
    ['acc_c', 'provider_c'],
    ['acc_d', 'provider_d'],
  ] as const) {
    world = withAdvertiser(world, { id, provider });
  }
  world = withAdvertiser(world, { id: 'acc_other', organization: 'org_other' });
  world = withKey(world, { label: 'reader', key: 'acr_test_reader_0001', permissions: ['asset:read'] });
  sb = await startTestSandbox({ world });
  otherKey = sb.key('org-other');
});
afterAll(async () => {
  await sb.close();
});

const full = () => sb.keys.full;

describe('list', () => {
  it('pages newest first with cursors bound to their filters', async () => {
    const org = await startTestSandbox({ world: minimalWorld() });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await reserve(org, { filename: `f${i}.png` })).id);
      await upload(org, gif(), 'image/gif', 'ready.gif');
      const first = await org.req('GET', '/assets', { key: org.keys.full, query: { limit: 2, state: 'reserved' } });
      expect(first.status).toBe(200);
      expect(first.body.data.map((a: { id: string }) => a.id)).toEqual([ids[4], ids[3]]);
      const second = await org.req('GET', '/assets', { key: org.keys.full, query: { limit: 2, state: 'reserved', cursor: first.body.nextCursor } });
      expect(second.body.data.map((a: { id: string }) => a.id)).toEqual([ids[2], ids[1]]);
      const third = await org.req('GET', '/assets', { key: org.keys.full, query: { limit: 2, state: 'reserved', cursor: second.body.nextCursor } });
      expect(third.body.data.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
      expect(third.body.nextCursor).toBeUndefined();

      const all = await org.req('GET', '/assets', { key: org.keys.full });
      expect(all.body.data).toHaveLength(6);
      expect(all.body.data[0]).toMatchObject({ filename: 'ready.gif', state: 'ready', kind: 'image' });
      const videos = await org.req('GET', '/assets', { key: org.keys.full, query: { kind: 'video' } });
      expect(videos.body).toEqual({ data: [] });

      // A cursor from another filter set, or edited, is invalid.
      const other = await org.req('GET', '/assets', { key: org.keys.full, query: { limit: 2, cursor: first.body.nextCursor } });
      expect(other.status).toBe(400);
      expect(other.body.error).toBe('invalid_cursor');
      const garbage = await org.req('GET', '/assets', { key: org.keys.full, query: { cursor: 'abc' } });
      expect(garbage.body.error).toBe('invalid_cursor');
      const tooMany = await org.req('GET', '/assets', { key: org.keys.full, query: { limit: 501 } });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error).toBe('invalid_request');
    } finally {
      await org.close();
    }
  });
});

describe('rename', () => {
  it('writes with the current revision and refuses a stale one (409 revision_mismatch, currentRevision)', async () => {
    const reserved = await reserve(sb, { filename: 'a.png' });
    const ok = await sb.req('PATCH', `/assets/${reserved.id}`, { key: full(), body: { filename: 'b.png', revision: 1 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ filename: 'b.png', revision: 2 });
    const stale = await sb.req('PATCH', `/assets/${reserved.id}`, { key: full(), body: { filename: 'c.png', revision: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'revision_mismatch', currentRevision: 2 });
    expect((await sb.req('GET', `/assets/${reserved.id}`, { key: full() })).body).toMatchObject({ filename: 'b.png', revision: 2 });
  });

  it('requires a revision (400)', async () => {
    const reserved = await reserve(sb);
    const res = await sb.req('PATCH', `/assets/${reserved.id}`, { key: full(), body: { filename: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([expect.objectContaining({ in: 'body', path: '/revision' })]);
  });

  it('lets exactly one of two racing writers win; the other gets revision_mismatch and nothing is lost', async () => {
    for (let round = 0; round < 5; round++) {
      const reserved = await reserve(sb, { filename: 'race.png' });
      const names = ['left.png', 'right.png'];
      const results = await Promise.all(names.map((filename) => sb.req('PATCH', `/assets/${reserved.id}`, { key: full(), body: { filename, revision: 1 } })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409]);
      const winner = results.find((r) => r.status === 200)!;
      const loser = results.find((r) => r.status === 409)!;
      expect(loser.body).toMatchObject({ error: 'revision_mismatch', currentRevision: 2 });
      const now = await sb.req('GET', `/assets/${reserved.id}`, { key: full() });
      expect(now.body).toMatchObject({ filename: winner.body.filename, revision: 2 });
      // The loser rereads, reapplies and wins.
      const retry = await sb.req('PATCH', `/assets/${reserved.id}`, { key: full(), body: { filename: 'merged.png', revision: loser.body.currentRevision } });
      expect(retry.body).toMatchObject({ filename: 'merged.png', revision: 3 });
    }
  });
});

describe('delete', () => {
  it('deletes the asset and its file; a stale revision deletes nothing', async () => {
    const { reserved } = await upload(sb, png(), 'image/png');
    const before = (await storedFiles(sb)).files.length;
    const stale = await sb.req('DELETE', `/assets/${reserved.id}`, { key: full(), query: { revision: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'revision_mismatch', currentRevision: 2 });
    const res = await sb.req('DELETE', `/assets/${reserved.id}`, { key: full(), query: { revision: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: reserved.id });
    expect((await storedFiles(sb)).files.length).toBe(before - 1);
    expect((await sb.req('GET', `/assets/${reserved.id}`, { key: full() })).status).toBe(404);
    expect((await sb.req('DELETE', `/assets/${reserved.id}`, { key: full() })).status).toBe(404);
  });
});

describe('register', () => {
  it('registers a ready asset to an owned advertiser, once per advertiser, with the provider library id', async () => {
    const { reserved } = await upload(sb, png(), 'image/png');
    const shapes: Record<string, RegExp> = {
      acc_a: /^[0-9a-f]{32}$/,
      acc_b: /^ad-site-i18n-sg\/[0-9a-f]{24}$/,
      acc_c: /^customers\/\d+\/assets\/\d{11}$/,
      acc_d: /^\d{12}$/,
    };
    for (const [advertiserId, shape] of Object.entries(shapes)) {
      const res = await sb.req('POST', `/assets/${reserved.id}/registrations`, { key: full(), body: { advertiserId } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ assetId: reserved.id, advertiserId });
      expect(res.body.providerAssetId).toMatch(shape);
      const again = await sb.req('POST', `/assets/${reserved.id}/registrations`, { key: full(), body: { advertiserId } });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
    }
    const asset = await sb.req('GET', `/assets/${reserved.id}`, { key: full() });
    expect(asset.body.registrations.map((r: { advertiserId: string }) => r.advertiserId)).toEqual(['acc_a', 'acc_b', 'acc_c', 'acc_d']);
    expect(asset.body.registrations[0].provider).toBe('provider_a');
    // The list answers each asset with its own registrations (read for the whole page at once).
    const other = (await upload(sb, png(), 'image/png')).reserved;
    await sb.req('POST', `/assets/${other.id}/registrations`, { key: full(), body: { advertiserId: 'acc_b' } });
    const listed = (await sb.req('GET', '/assets', { key: full(), query: { limit: 500 } })).body.data as Array<{
      id: string;
      registrations: Array<{ advertiserId: string }>;
    }>;
    const regs = (id: string) => listed.find((x) => x.id === id)!.registrations.map((r) => r.advertiserId);
    expect(regs(reserved.id)).toEqual(['acc_a', 'acc_b', 'acc_c', 'acc_d']);
    expect(regs(other.id)).toEqual(['acc_b']);
  });

  it('gives a video a numeric id at provider_a', async () => {
    const { reserved } = await upload(sb, mp4(), 'video/mp4');
    const res = await sb.req('POST', `/assets/${reserved.id}/registrations`, { key: full(), body: { advertiserId: 'acc_a' } });
    expect(res.body.providerAssetId).toMatch(/^\d{15}$/);
  });

  it('422 advertiser_not_owned for another organization’s or an unknown advertiser', async () => {
    const { reserved } = await upload(sb, png(), 'image/png');
    for (const advertiserId of ['acc_other', 'acc_nobody']) {
      const res = await sb.req('POST', `/assets/${reserved.id}/registrations`, { key: full(), body: { advertiserId } });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('advertiser_not_owned');
    }
    const shape = await sb.req('POST', `/assets/${reserved.id}/registrations`, { key: full(), body: { advertiserId: 'nope' } });
    expect(shape.status).toBe(400);
  });

  it('409 asset_not_ready before finalize', async () => {
    const reserved = await reserve(sb);
    const res = await sb.req('POST', `/assets/${reserved.id}/registrations`, { key: full(), body: { advertiserId: 'acc_a' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('asset_not_ready');
  });
});

describe('organization boundary and permissions', () => {
  it('answers 404 for another organization’s asset on every operation, and never lists it', async () => {
    const { reserved } = await upload(sb, png(), 'image/png');
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/assets/${reserved.id}`],
      ['PATCH', `/assets/${reserved.id}`, { filename: 'x', revision: 2 }],
      ['DELETE', `/assets/${reserved.id}`],
      ['POST', `/assets/${reserved.id}/finalize`],
      ['POST', `/assets/${reserved.id}/registrations`, { advertiserId: 'acc_other' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await sb.req(method, path, { key: otherKey, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    const list = await sb.req('GET', '/assets', { key: otherKey });
    expect(list.body.data.some((a: { id: string }) => a.id === reserved.id)).toBe(false);
    expect((await sb.req('GET', `/assets/${reserved.id}`, { key: full() })).body.state).toBe('ready');
  });

  it('needs asset:write to change and asset:read to read', async () => {
    const reader = sb.key('reader');
    expect((await sb.req('GET', '/assets', { key: reader })).status).toBe(200);
    const res = await sb.req('POST', '/assets/uploads', { key: reader, body: { filename: 'x.png' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('forbidden');
    expect((await sb.req('POST', '/assets/uploads', { body: { filename: 'x.png' } })).status).toBe(401);
  });
});
