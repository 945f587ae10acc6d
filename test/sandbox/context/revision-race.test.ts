// The revision rule under concurrent writers, over real HTTP: two writers that
// read the same revision race; exactly one wins, the other gets 409
// revision_mismatch with currentRevision, and nothing is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContextSandbox } from './world.js';
import type { Ctx } from './world.js';

let ctx: Ctx;
beforeAll(async () => {
  ctx = await startContextSandbox();
  await ctx.call('POST', '/context/skills', { body: { slug: 'race', name: 'race' } });
  await ctx.call('POST', '/context/brands', { body: { slug: 'race', name: 'race' } });
  await ctx.call('POST', '/context/brands/race/personas', { body: { slug: 'race', name: 'race' } });
  await ctx.call('POST', '/context/campaign-plans', { body: { slug: 'race', name: 'race', currency: 'USD' } });
});
afterAll(() => ctx.sb.close());

async function lineItemPath(): Promise<string> {
  const li = await ctx.call('POST', '/context/campaign-plans/race/line-items', { body: { name: 'race' } });
  return `/context/campaign-plans/race/line-items/${li.body.lineItemId}`;
}

const targets: Array<[string, () => Promise<string>, (n: number) => Record<string, unknown>, (row: any) => unknown]> = [
  ['skill', async () => '/context/skills/race', (n) => ({ name: `writer ${n}` }), (r) => r.name],
  ['brand', async () => '/context/brands/race', (n) => ({ voice: `writer ${n}` }), (r) => r.voice],
  ['persona', async () => '/context/brands/race/personas/race', (n) => ({ description: `writer ${n}` }), (r) => r.description],
  ['campaign plan', async () => '/context/campaign-plans/race', (n) => ({ budget: 100 + n }), (r) => r.budget],
  ['line item', lineItemPath, (n) => ({ budget: 10 + n }), (r) => r.budget],
];

async function readRow(path: string): Promise<any> {
  if (path.includes('/line-items/')) {
    const [planPath, id] = path.split('/line-items/') as [string, string];
    return (await ctx.call('GET', planPath)).body.lineItems.find((l: any) => l.lineItemId === id);
  }
  return (await ctx.call('GET', path)).body;
}

describe('two writers with the same revision', () => {
  it.each(targets)('%s: exactly one wins, the other gets revision_mismatch, the winner’s write stands', async (_name, pathOf, change, field) => {
    const path = await pathOf();
    const { revision } = await readRow(path);
    const [a, b] = await Promise.all([
      ctx.call('PATCH', path, { body: { revision, ...change(1) } }),
      ctx.call('PATCH', path, { body: { revision, ...change(2) } }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const [winner, loser, winnerN] = a.status === 200 ? [a, b, 1] : [b, a, 2];
    expect(loser.body).toMatchObject({ error: 'revision_mismatch', currentRevision: revision + 1 });
    expect(winner.body.revision).toBe(revision + 1);
    const after = await readRow(path);
    expect(after.revision).toBe(revision + 1);
    expect(field(after)).toEqual(field({ ...after, ...change(winnerN) }));
  });
});

describe('many writers that re-read and retry', () => {
  it('lose nothing: every writer’s goal ends up on the persona, one revision per write', async () => {
    const path = '/context/brands/race/personas/race';
    const start = (await ctx.call('GET', path)).body;
    const writers = 8;
    let conflicts = 0;
    // Everyone reads before anyone writes, so the first round surely collides.
    const firstReads = await Promise.all(Array.from({ length: writers }, () => ctx.call('GET', path)));
    await Promise.all(
      Array.from({ length: writers }, async (_, n) => {
        for (let attempt = 0; attempt < 50; attempt++) {
          const row = attempt === 0 ? firstReads[n]!.body : (await ctx.call('GET', path)).body;
          const res = await ctx.call('PATCH', path, { body: { revision: row.revision, goals: [...row.goals, `goal ${n}`] } });
          if (res.status === 200) return;
          expect(res.status).toBe(409);
          expect(res.body.error).toBe('revision_mismatch');
          conflicts++;
        }
        throw new Error(`writer ${n} never got through`);
      }),
    );
    const end = (await ctx.call('GET', path)).body;
    expect([...end.goals].sort()).toEqual(Array.from({ length: writers }, (_, n) => `goal ${n}`).sort());
    expect(end.revision).toBe(start.revision + writers);
    expect(conflicts).toBeGreaterThanOrEqual(writers - 1); // the first round: one winner, the rest refused
  });
});
