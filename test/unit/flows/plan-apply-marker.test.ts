// The local marker of a `plans apply` in progress (#13 item 15): one holder per
// slug; a dead holder's marker is taken over and handed back as a leftover.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { MarkerHeld, PlanApplyMarkers } from '../../../src/state/plan-markers.js';
import { isLeftoverOf } from '../../../src/flows/plan-apply.js';
import { tempDir } from '../../helpers/temp.js';

const dir = () => tempDir('adops-marker-');
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

describe('PlanApplyMarkers', () => {
  it('claims once, refuses a second live holder, releases', () => {
    const m = new PlanApplyMarkers(dir(), 'https://api\ndefault');
    expect(m.claim('spring')).toEqual({});
    // A live holder (this test process, seen from another "run": a marker written by pid 1 on this host).
    const other = new PlanApplyMarkers(dir(), 's');
    other.claim('x');
    writeFileSync(other.pathOf('x'), JSON.stringify({ v: 1, slug: 'x', pid: 1, host: hostname(), startedAt: 1 }));
    expect(() => other.claim('x')).toThrow(MarkerHeld);
    m.release('spring');
    expect(m.claim('spring')).toEqual({});
  });

  it("takes over a dead run's marker and returns it as the leftover", () => {
    const m = new PlanApplyMarkers(dir(), 's', () => 5000);
    m.claim('p');
    const left = { v: 1 as const, slug: 'p', pid: deadPid(), host: hostname(), startedAt: 1000, planCreatedAt: 1200 };
    writeFileSync(m.pathOf('p'), JSON.stringify(left));
    expect(m.claim('p')).toEqual({ leftover: left });
    expect(JSON.parse(readFileSync(m.pathOf('p'), 'utf8')).pid).toBe(process.pid);
  });

  it('proves a leftover by the createdAt it recorded, or by time and fields when the answer was lost', () => {
    const doc = { plan: { slug: 'p', name: 'P', currency: 'USD' }, lineItems: [] };
    const marker = { v: 1 as const, slug: 'p', pid: 1, host: 'h', startedAt: 10_000_000 };
    const plan = { slug: 'p', name: 'P', currency: 'USD', status: 'draft', createdAt: 10_000_500, revision: 1 };
    expect(isLeftoverOf(plan, { ...marker, planCreatedAt: 10_000_500 }, doc)).toBe(true);
    expect(isLeftoverOf(plan, { ...marker, planCreatedAt: 9 }, doc)).toBe(false);
    expect(isLeftoverOf(plan, marker, doc)).toBe(true);
    expect(isLeftoverOf({ ...plan, name: 'Other' }, marker, doc)).toBe(false);
    expect(isLeftoverOf({ ...plan, createdAt: 1 }, marker, doc)).toBe(false);
    expect(isLeftoverOf({ ...plan, status: 'approved' }, { ...marker, planCreatedAt: 10_000_500 }, doc)).toBe(false);
  });
});
