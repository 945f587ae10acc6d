// A list that stops with rows left prints the next-page cursor once on stderr,
// on the line a script reads (`next cursor: X`), cleaned of control characters
// (it is server text): the BUILT binary against a loopback service whose
// cursors hold escape sequences.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { loopbackServer } from '../helpers/drop-proxy.js';

const KEY = 'acr_test_full_0001';
const HOSTILE = 'cur1\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202eZ';
const row = (id: string) => ({ id, filename: `${id}.png`, state: 'ready', revision: 1 });

const service = loopbackServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  res.writeHead(200, { 'content-type': 'application/json' });
  // Page 1 (no cursor) and page 2 each hold one row and point on; so every short run stops with rows left.
  if (url.searchParams.get('cursor') === null) return res.end(JSON.stringify({ data: [row('ast_1')], nextCursor: HOSTILE }));
  if (url.searchParams.get('cursor') === 'cur2-plain') return res.end(JSON.stringify({ data: [row('ast_3')], nextCursor: 'cur3\r\nInjected-Line' }));
  res.end(JSON.stringify({ data: [row('ast_2')], nextCursor: 'cur2-plain' }));
});

const run = (args: string[]) => runAdopsInProcess(args, { env: { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: service.url, ADOPS_API_KEY: KEY } });
const count = (text: string, part: string) => text.split(part).length - 1;

beforeAll(() => ensureBuilt());

describe('the next cursor on stderr', () => {
  it('one page shown: the cursor once, on a `next cursor:` line, with no control character', async () => {
    const r = await run(['assets', 'list', '--limit', '1', '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(count(r.stderr, 'cur1')).toBe(1);
    expect(r.stderr).toMatch(/^next cursor: cur1Z$/m);
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  it('--max reached: the cursor once', async () => {
    const r = await run(['assets', 'list', '--all', '--limit', '1', '--max', '2', '--output', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(count(r.stderr, 'cur2-plain')).toBe(1);
    expect(r.stderr).toMatch(/^next cursor: cur2-plain$/m);
  });

  it('a cursor holding a line break stays on its one `next cursor:` line and forges none', async () => {
    const r = await run(['assets', 'list', '--limit', '1', '--cursor', 'cur2-plain', '--output', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^next cursor: cur3 Injected-Line$/m);
    expect(r.stderr).not.toMatch(/^\s*Injected-Line/m);
  });
});
