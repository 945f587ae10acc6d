// The writing flow tools of `adops mcp` (issue #38), called as the server calls them against a sandbox in
// this process: an upload by path landing as a ready Asset (and shown, not sent again, the second time);
// changes previewed against live, applied with their undo file returned, applied again without a second
// mutation, and undone back to the value read before; a row with no way back (delete) stopping the run
// before anything is sent; the change file plans_verify proposes going round the same loop.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestSandbox } from '../helpers/sandbox.js';
import { generatedWorld } from '../helpers/plan-world.js';
import { cliAgainst } from '../helpers/sandbox-cli.js';
import { flowToolsAgainst } from '../helpers/mcp-flow-env.js';
import { tempDir } from '../helpers/temp.js';
import { png } from '../unit/uploads/media-samples.js';

const A = 'acc_mcp_changes_a';

const world = () => generatedWorld([{ id: A, currency: 'USD' }]);

const sb = useTestSandbox({ world: world() });
const { api } = cliAgainst(sb);
const { ok, fails, runs } = flowToolsAgainst(sb);
const dir = tempDir('mcp-flows-files-');

type Campaign = {
  id: string;
  name: string;
  status: string;
  objective: string | null;
  budget: number | null;
  budgetLevel: string | null;
  budgetType: string | null;
};
const live = async (id: string): Promise<Campaign> => (await api('GET', `/observe/${A}/campaigns?ids=${id}`)).data[0];
const ownBudget = async (): Promise<Campaign[]> =>
  (await api('GET', `/observe/${A}/campaigns?limit=100`)).data.filter(
    (c: Campaign) => c.status === 'ACTIVE' && c.budgetLevel === 'campaign' && c.budgetType === 'daily' && c.budget !== null,
  );
const mutationCount = async (): Promise<number> => (await api('GET', `/mutations?advertiserId=${A}&limit=500`)).data.length;

describe('assets_upload', () => {
  it('a local file by path lands as a ready Asset; the same file again is shown, not sent again; a directory is refused', async () => {
    const file = join(dir, 'hero.png');
    writeFileSync(file, png(64, 48));
    const asset = await ok('assets_upload', { path: file, register: [A] });
    expect(asset).toMatchObject({ filename: 'hero.png', mimeType: 'image/png', state: 'ready' });
    const stored = await api('GET', `/assets/${asset.id}`);
    expect(stored).toMatchObject({ filename: 'hero.png', state: 'ready', sha256: asset.sha256, registrations: [expect.objectContaining({ advertiserId: A })] });

    const again = await ok('assets_upload', { path: file });
    expect(again.id).toBe(asset.id);
    expect((await api('GET', '/assets?limit=500')).data.filter((x: { filename: string }) => x.filename === 'hero.png')).toHaveLength(1);

    const before = runs.length;
    const r = await fails('assets_upload', { path: dir });
    expect([r.code, r.error.code]).toEqual([2, 'usage_error']);
    expect(r.error.message).toContain('not a regular file');
    expect(runs.length).toBe(before);
  });
});

describe('mutations_preview → mutations_apply → mutations_undo', () => {
  it('a budget change: previewed, applied with its inverse returned, sent once when applied twice, undone back to the value before', async () => {
    const [c] = await ownBudget();
    const before = c!.budget!;
    const changes = [{ advertiserId: A, action: 'set_budget', target: { type: 'campaign', id: c!.id }, budget: { amount: before + 7 } }];

    const preview = await ok('mutations_preview', { changes });
    expect(preview.rows).toEqual([expect.objectContaining({ target: `campaign ${c!.id}`, effect: 'change' })]);
    expect((await live(c!.id)).budget).toBe(before);

    const sentBefore = await mutationCount();
    const applied = await ok('mutations_apply', { changes, timeoutSeconds: 30 });
    expect(applied.rows).toEqual([expect.objectContaining({ state: 'succeeded', sent: 'this run' })]);
    expect(applied.undo.changes).toEqual([
      expect.objectContaining({ action: 'set_budget', target: { type: 'campaign', id: c!.id }, budget: expect.objectContaining({ amount: before }) }),
    ]);
    expect((await live(c!.id)).budget).toBe(before + 7);
    expect(await mutationCount()).toBe(sentBefore + 1);

    // The same changes again: the same file and journal, nothing sent twice.
    const twice = await ok('mutations_apply', { changes, timeoutSeconds: 30 });
    expect(twice.rows).toEqual([expect.objectContaining({ sent: 'earlier run', mutationId: applied.rows[0].mutationId })]);
    expect(await mutationCount()).toBe(sentBefore + 1);

    const undone = await ok('mutations_undo', { undoFile: applied.undo.undoFile, timeoutSeconds: 30 });
    expect(undone.rows).toEqual([expect.objectContaining({ state: 'succeeded' })]);
    expect((await live(c!.id)).budget).toBe(before);

    // A new key is a new round of the same changes: sent again, with its own undo.
    const round2 = await ok('mutations_apply', { changes, idempotencyKey: 'round-2', timeoutSeconds: 30 });
    expect(round2.rows).toEqual([expect.objectContaining({ state: 'succeeded', sent: 'this run' })]);
    expect(round2.undo.undoFile).not.toBe(applied.undo.undoFile);
    expect((await live(c!.id)).budget).toBe(before + 7);
    await ok('mutations_undo', { undoFile: round2.undo.undoFile, timeoutSeconds: 30 });
    expect((await live(c!.id)).budget).toBe(before);
  });

  it('a delete among the rows: no way back, so nothing is sent; a file that is not an undo file is not undone', async () => {
    const [c, d] = (await api('GET', `/observe/${A}/campaigns?limit=100`)).data.filter((x: Campaign) => x.status === 'ACTIVE');
    const sentBefore = await mutationCount();
    const r = await fails('mutations_apply', {
      changes: [
        { advertiserId: A, action: 'pause', target: { type: 'campaign', id: c!.id } },
        { advertiserId: A, action: 'delete', target: { type: 'campaign', id: d!.id } },
      ],
    });
    expect(r.code).toBe(2);
    expect(r.error.message).toMatch(/cannot be undone/);
    expect(await mutationCount()).toBe(sentBefore);
    expect((await live(c!.id)).status).toBe('ACTIVE');

    const plain = join(dir, 'plain.ndjson');
    writeFileSync(plain, JSON.stringify({ advertiserId: A, action: 'pause', target: { type: 'campaign', id: c!.id } }) + '\n');
    expect((await fails('mutations_undo', { undoFile: plain })).error.message).toMatch(/not an undo file/);
    expect((await fails('mutations_apply', { file: plain, changes: [] })).error.message).toMatch(/either file .* or changes/);
    expect((await fails('mutations_apply', { file: plain, idempotencyKey: 'k' })).error.message).toMatch(/idempotencyKey names a round of inline changes/);
    expect(await mutationCount()).toBe(sentBefore);
  });

  it('the change file plans_verify proposes goes round the loop: applied, the plan is in sync; undone, it is not', async () => {
    const [c] = await ownBudget(); // the first test's budget change was undone
    const slug = 'mcp-loop';
    const end = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
    await api('POST', '/context/campaign-plans', { slug, name: slug, currency: 'USD', startDate: '2026-09-01', endDate: end });
    const li = {
      name: 'li',
      provider: 'provider_a',
      advertiserId: A,
      budget: c!.budget! + 5,
      budgetType: 'daily',
      startDate: '2026-09-01',
      endDate: end,
      objective: c!.objective,
    };
    const { lineItemId } = await api('POST', `/context/campaign-plans/${slug}/line-items`, li);
    await api('POST', `/context/campaign-plans/${slug}/approve`, {});
    await api('POST', `/context/campaign-plans/${slug}/line-items/${lineItemId}/executions`, {
      provider: 'provider_a',
      entityType: 'campaign',
      entityId: c!.id,
    });

    const verified = await ok('plans_verify', { slug, propose: true });
    expect(verified.inSync).toBe(false);
    const preview = await ok('mutations_preview', { file: verified.changeFile });
    expect(preview.rows).toEqual([expect.objectContaining({ field: 'budget', effect: 'change' })]);
    const applied = await ok('mutations_apply', { file: verified.changeFile, timeoutSeconds: 30 });
    expect((await ok('plans_verify', { slug })).inSync).toBe(true);
    await ok('mutations_undo', { undoFile: applied.undo.undoFile, timeoutSeconds: 30 });
    expect((await live(c!.id)).budget).toBe(c!.budget);
    expect((await ok('plans_verify', { slug })).inSync).toBe(false);
  });
});
