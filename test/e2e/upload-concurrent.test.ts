// Two uploads of the same bytes at once on one config dir (issue 13 item 2):
// real processes of the built binary, several rounds. Each round ends with ONE
// ready Asset per file, both runs print its id, and every printed id answers 200.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runAdops, tempConfigDir } from '../helpers/cli.js';
import { startTestSandbox, TEST_FULL_KEY, type TestSandbox } from '../helpers/sandbox.js';
import { mp4, png } from '../unit/uploads/media-samples.js';
import { tempDir } from '../helpers/temp.js';

const ROUNDS = 5;
let sb: TestSandbox;
let cfg: string;
const adops = (args: string[]) => runAdops(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: TEST_FULL_KEY }, timeoutMs: 90_000 });

beforeAll(async () => {
  ensureBuilt();
  sb = await startTestSandbox();
  cfg = tempConfigDir();
}, 60_000);
afterAll(() => sb?.close());

/** Every Asset of this name, in any state. */
async function named(filename: string): Promise<Array<Record<string, any>>> {
  const res = await sb.req('GET', '/assets', { key: TEST_FULL_KEY, query: { limit: 500 } });
  return res.body.data.filter((a: { filename: string }) => a.filename === filename);
}

const answers = async (id: string) => (await sb.req('GET', `/assets/${id}`, { key: TEST_FULL_KEY })).status;

/** A real MP4 header followed by bytes of its own: other content every call. */
const video = (bytes: number) => Buffer.concat([mp4(), randomBytes(bytes)]);

describe('two uploads of the same bytes at once', () => {
  it(`assets upload: one ready Asset, both runs print its id (${ROUNDS} rounds)`, async () => {
    const dir = tempDir('adops-up-race-');
    let waited = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const name = `race-${round}.mp4`;
      const p = join(dir, name);
      writeFileSync(p, video(3 * 1024 * 1024));
      const [a, b] = await Promise.all([adops(['assets', 'upload', p, '--output', 'json']), adops(['assets', 'upload', p, '--output', 'json'])]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      const ids = [a, b].map((r) => JSON.parse(r.stdout)[0].id as string);
      expect(ids[0], `round ${round}`).toBe(ids[1]);
      const rows = await named(name);
      expect(
        rows.map((r) => [r.id, r.state]),
        `round ${round}`,
      ).toEqual([[ids[0], 'ready']]);
      expect(await answers(ids[0]!)).toBe(200);
      // One run showed what the other made (it waited for the lock, or started after the first had finished).
      const second = [a, b].find((r) => r.stderr.includes(`already uploaded as ${ids[0]}`));
      expect(second, `round ${round}`).toBeDefined();
      if (/waiting: another run is uploading the same bytes \(pid \d+/.test(second!.stderr)) waited++;
    }
    // The runs really overlapped in at least one round (a scheduler can serialise any single round).
    expect(waited).toBeGreaterThan(0);
  }, 180_000);

  it(`assets sync of one folder: one ready Asset per file, every printed id answers 200 (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = join(tempDir('adops-sync-race-'), 'creatives');
      mkdirSync(dir);
      const names = [`s${round}-a.mp4`, `s${round}-b.mp4`, `s${round}-c.png`];
      writeFileSync(join(dir, names[0]!), video(1024 * 1024));
      writeFileSync(join(dir, names[1]!), video(1024 * 1024));
      writeFileSync(join(dir, names[2]!), png(100 + round, 50));
      const [a, b] = await Promise.all([adops(['assets', 'sync', dir, '--output', 'json']), adops(['assets', 'sync', dir, '--output', 'json'])]);
      expect(a.code, a.stderr).toBe(0);
      expect(b.code, b.stderr).toBe(0);
      const printed = [a, b].flatMap((r) => JSON.parse(r.stdout) as Array<{ file: string; id: string; result: string }>);
      for (const name of names) {
        const rows = await named(name);
        expect(
          rows.map((r) => r.state),
          `round ${round} ${name}`,
        ).toEqual(['ready']);
        const ids = printed.filter((p) => p.file.endsWith(name)).map((p) => p.id);
        expect(ids, `round ${round} ${name}`).toEqual([rows[0]!.id, rows[0]!.id]);
      }
      for (const id of new Set(printed.map((p) => p.id))) expect(await answers(id)).toBe(200);
    }
  }, 180_000);
});
