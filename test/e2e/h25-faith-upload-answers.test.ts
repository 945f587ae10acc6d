// An upload acts on three success answers: the reservation (its id and upload
// URL), the finalize and the polls after it (a state of the contract). Each is
// checked before it is acted on: the BUILT binary against a loopback service
// whose answers lack what the step needs. Such an answer is exit 1
// `unexpected_answer` naming the operation, never "a bug in adops", never a
// PUT to a URL that is not one, and never 0 for a row that is not ready.
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { loopbackServer } from '../helpers/drop-proxy.js';
import { tempDir } from '../helpers/temp.js';

const KEY = 'acr_test_full_0001';
type Answers = { reserve: (base: string) => unknown; finalize: unknown; get: unknown };
const good: Answers = {
  reserve: (base) => ({
    id: 'ast_u1',
    filename: 'a.png',
    state: 'reserved',
    revision: 1,
    uploadUrl: `${base}/storage/ast_u1?t=1`,
    uploadExpiresAt: Date.now() + 3_600_000,
  }),
  finalize: { id: 'ast_u1', state: 'ready', sizeBytes: 33, revision: 2 },
  get: { id: 'ast_u1', state: 'ready', revision: 2 },
};
let answers: Answers = good;
const seen: string[] = [];

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const service = loopbackServer((req: IncomingMessage, res: ServerResponse) => {
  const path = (req.url ?? '').split('?')[0]!;
  seen.push(`${req.method} ${path}`);
  if (req.method === 'PUT') return send(res, 200, {});
  if (req.method === 'POST' && path === '/assets/uploads') return send(res, 201, answers.reserve(service.url));
  if (req.method === 'POST' && path.endsWith('/finalize')) return send(res, 200, answers.finalize);
  if (req.method === 'GET' && path.startsWith('/assets/')) return send(res, 200, answers.get);
  if (req.method === 'DELETE') return send(res, 200, { deleted: true, id: 'ast_u1' });
  send(res, 404, { error: 'not_found', message: 'no' });
});

const dir = tempDir('adops-h25-faith-up-');
const png = join(dir, 'a.png');
const run = () =>
  runAdopsInProcess(['assets', 'upload', png, '--timeout', '2'], {
    env: { ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: service.url, ADOPS_API_KEY: KEY },
    timeoutMs: 30_000,
  });

beforeAll(() => {
  ensureBuilt();
  writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de', 'hex'));
});
beforeEach(() => {
  answers = good;
  seen.splice(0);
});

describe('the reservation', () => {
  it.each([
    ['no upload URL', { id: 'ast_u1', state: 'reserved' }, /uploadUrl: missing/],
    ['an upload URL that is not http(s)', { id: 'ast_u1', state: 'reserved', uploadUrl: 'file:///etc/passwd' }, /uploadUrl: not an http\(s\) URL/],
    ['no id', { uploadUrl: 'http://127.0.0.1:9/x' }, /id: missing/],
  ])('%s: exit 1 unexpected_answer to POST /assets/uploads, nothing PUT', async (_what, reservation, problem) => {
    answers = { ...good, reserve: () => reservation };
    const r = await run();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/unexpected_answer/);
    expect(r.stderr).toMatch(/unexpected answer to POST \/assets\/uploads/);
    expect(r.stderr).toMatch(problem);
    expect(r.stderr).not.toMatch(/bug in adops/);
    expect(seen.filter((s) => s.startsWith('PUT'))).toEqual([]);
  });
});

describe('the finalize and the wait for ready', () => {
  it('a finalize answer without a state: exit 1 unexpected_answer to POST /assets/{id}/finalize', async () => {
    answers = { ...good, finalize: { id: 'ast_u1' } };
    const r = await run();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/unexpected answer to POST \/assets\/\{id\}\/finalize: state: missing/);
  });

  it('polls answering `uploaded` beside `status: done`: still not ready at the timeout (exit 8), never 0', async () => {
    answers = { ...good, finalize: { id: 'ast_u1', state: 'uploaded' }, get: { id: 'ast_u1', state: 'uploaded', status: 'done' } };
    const r = await run();
    expect(r.code, r.stderr).toBe(8);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('a poll answering a state outside the contract: exit 1 unexpected_answer to GET /assets/{id}', async () => {
    answers = { ...good, finalize: { id: 'ast_u1', state: 'uploaded' }, get: { id: 'ast_u1', state: 'done' } };
    const r = await run();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/unexpected answer to GET \/assets\/\{id\}: state: not one of reserved, uploaded, ready/);
  });

  it('the contract’s answers: exit 0', async () => {
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
  });
});
