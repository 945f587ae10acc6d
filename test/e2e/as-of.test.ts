// The CLI against `adops sandbox serve --as-of 2026-09-23` (the service as it
// was before 2026-09-24): the old answers map to the same exit codes as
// today's, never to "a bug in adops".
import { describe, expect, it } from 'vitest';
import { DEMO, tempConfigDir, useSandboxChild } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

const cfg = tempConfigDir();
const cli = (args: readonly string[], key = DEMO.full) =>
  runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: old.url, ADOPS_API_KEY: key } });

// A child, not the in-process sandbox: the serve command's --as-of flag and its note on stderr are what is tested.
const old = useSandboxChild(['--as-of', '2026-09-23']);

describe('adops against the service as it was before 2026-09-24', () => {
  it('says which behaviour it serves', () => {
    expect(old.stderr()).toContain('serving the behaviour from before 2026-09-24');
  });

  it('plain-text NOT_FOUND is exit 4 (not_found), in text and json', async () => {
    const r = await cli(['api', 'GET', '/no/such/path']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: not_found \(404\): No operation of this service answers/m);
    expect(r.stderr).not.toMatch(/bug in adops/);
    const j = await cli(['api', 'GET', '/no/such/path', '-o', 'json']);
    expect(j.code).toBe(4);
    expect(JSON.parse(j.stderr).error).toMatchObject({ code: 'not_found', status: 404, exitCode: 4 });
  });

  it('the old 422 is exit 7 (invalid_request) with the framework message and its issues', async () => {
    const r = await cli(['api', 'GET', '/observe/campaigns', '-f', 'limit=9999']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^error: invalid_request \(422\): Request validation failed/m);
    expect(r.stderr).toContain('query /limit: must be at most 500');
    expect(r.stderr).not.toMatch(/bug in adops/);
    // Schema before key (Observe): the mismatch answers even with a revoked key.
    const revoked = await cli(['api', 'GET', '/observe/campaigns', '-f', 'limit=0'], DEMO.revoked);
    expect(revoked.code).toBe(7);
    // Mutations checked the key first, then too.
    const mutation = await cli(['api', 'POST', '/mutations', '-F', 'bogus=1'], DEMO.revoked);
    expect(mutation.code).toBe(3);
  });

  it('ordinary commands work as today', async () => {
    const r = await cli(['observe', 'campaigns', '--limit', '2', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    const missing = await cli(['brands', 'get', 'no-such-brand']);
    expect(missing.code).toBe(4);
  });

  it('a malformed --as-of is a usage error before anything starts', async () => {
    const r = await runAdopsInProcess(['sandbox', 'serve', '--port', '0', '--data', ':memory:', '--as-of', '2026-02-30'], { env: { ADOPS_CONFIG_DIR: cfg } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--as-of 2026-02-30: not a calendar date');
  });
});
