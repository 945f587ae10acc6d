// Destructive commands (issue #4): they ask for confirmation on a terminal and
// need --yes elsewhere; without it nothing is deleted. `adops assets delete`
// against the demo sandbox (in this process), piped and under a pseudo-terminal (script(1)).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runAdopsTty, tempConfigDir } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

let sandbox: DemoSandbox;
let cfg: string; // logged in through `sandbox serve --login`
const env = (extra: Record<string, string | undefined> = {}) => ({ ADOPS_CONFIG_DIR: cfg, ...extra });

/** A fresh Asset (reserved: enough to be read and deleted). */
async function newAsset(): Promise<string> {
  const r = await runAdopsInProcess(['api', 'POST', '/assets/uploads', '-f', 'filename=doomed.png', '--json'], { env: env() });
  expect(r.code, r.stderr).toBe(0);
  const id = (JSON.parse(r.stdout) as { id: string }).id;
  expect(id).toMatch(/^ast_/);
  return id;
}

/** Exit code of `adops assets get ID`: 0 while it exists, 4 once deleted. */
async function getCode(id: string): Promise<number | null> {
  return (await runAdopsInProcess(['assets', 'get', id], { env: env() })).code;
}

beforeAll(async () => {
  ensureBuilt();
  cfg = tempConfigDir();
  sandbox = await startDemoSandbox({ login: { configDir: cfg } });
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

describe('adops assets delete', () => {
  it('is marked destructive in the command tree and its help', async () => {
    const tree = await runAdopsInProcess(['help', '--json']);
    const cmd = (JSON.parse(tree.stdout) as { commands: Array<{ path: string[]; destructive?: boolean }> }).commands.find(
      (c) => c.path.join(' ') === 'assets delete',
    );
    expect(cmd?.destructive).toBe(true);
    const help = await runAdopsInProcess(['assets', 'delete', '--help']);
    expect(help.stdout).toMatch(/Destructive: asks for confirmation on a terminal; needs --yes elsewhere/);
  });

  it('piped without --yes: exit 2, a clear message, nothing sent, the Asset still exists', async () => {
    const id = await newAsset();
    const r = await runAdopsInProcess(['assets', 'delete', id], { env: env({ ADOPS_DEBUG: '1' }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`"adops assets delete ${id}" is destructive`);
    expect(r.stderr).toMatch(/pass --yes/);
    expect(r.stderr).not.toMatch(/DELETE/); // the debug trace shows no request
    expect(await getCode(id)).toBe(0);
  });

  it('with --yes (or -y): deleted, and a read answers 404 (exit 4)', async () => {
    const id = await newAsset();
    const r = await runAdopsInProcess(['assets', 'delete', id, '--yes'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ deleted: true, id });
    expect(await getCode(id)).toBe(4);

    const other = await newAsset();
    expect((await runAdopsInProcess(['assets', 'delete', '-y', other], { env: env() })).code).toBe(0);
    expect(await getCode(other)).toBe(4);
  });

  it('a stale --revision answers 409 (exit 5) and deletes nothing', async () => {
    const id = await newAsset();
    const r = await runAdopsInProcess(['assets', 'delete', id, '--revision', '7', '--yes'], { env: env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/revision_mismatch/);
    expect(await getCode(id)).toBe(0);
  });

  it('on a terminal, answering n to the prompt deletes nothing', async () => {
    const id = await newAsset();
    const r = await runAdopsTty(['assets', 'delete', id], { env: env(), input: 'n\r', waitFor: 'cannot be undone' });
    // Names what goes: the id it was given and the file name read from the service.
    expect(r.stdout).toContain(`Delete an Asset (id ${id}): "doomed.png": delete it? This cannot be undone.`);
    expect(r.stdout).toMatch(/cancelled/);
    expect(r.code).toBe(2);
    expect(await getCode(id)).toBe(0);
  });

  it('on a terminal, answering y to the prompt deletes', async () => {
    const id = await newAsset();
    const r = await runAdopsTty(['assets', 'delete', id], { env: env(), input: 'y\r', waitFor: 'cannot be undone' });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/deleted/);
    expect(await getCode(id)).toBe(4);
  });

  it('`adops api DELETE` is destructive too: piped without --yes, exit 2 and nothing deleted', async () => {
    const id = await newAsset();
    const r = await runAdopsInProcess(['api', 'DELETE', `/assets/${id}`], { env: env({ ADOPS_DEBUG: '1' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"adops api DELETE /assets/${id}" is destructive`);
    expect(r.stderr).not.toMatch(/→ DELETE/);
    expect(await getCode(id)).toBe(0);
    const yes = await runAdopsInProcess(['api', 'DELETE', `/assets/${id}`, '--yes'], { env: env() });
    expect(yes.code, yes.stderr).toBe(0);
    expect(await getCode(id)).toBe(4);
  });

  it('on a terminal with CI=true or --no-input: no prompt, exit 2, nothing deleted', async () => {
    const id = await newAsset();
    for (const [args, extra] of [
      [['assets', 'delete', id], { CI: 'true' }],
      [['assets', 'delete', id, '--no-input'], {}],
    ] as const) {
      const r = await runAdopsTty(args, { env: env(extra), timeoutMs: 10_000 });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(2);
      expect(r.stdout).not.toMatch(/cannot be undone/);
      expect(r.stdout).toMatch(/pass --yes/);
    }
    expect(await getCode(id)).toBe(0);
  });
});
