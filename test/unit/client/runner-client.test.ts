// The runner's client wiring, in-process with an injected stub transport:
// an aborted run sends nothing, SIGTERM maps to 143, throttling waits are
// told on stderr.
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Registry, type CommandSpec } from '../../../src/cli/registry.js';
import { abortReasonFor, retryWaitNote, runCli } from '../../../src/cli/run.js';
import { toReport } from '../../../src/cli/report.js';
import { HttpStubs, json } from '../../helpers/http-stub.js';
import { tempDir } from '../../helpers/temp.js';

function stream() {
  const s = new PassThrough();
  let text = '';
  s.on('data', (c) => (text += c));
  return Object.assign(s, { text: () => text });
}

const commands: CommandSpec[] = [
  {
    path: ['t', 'get'],
    description: 'one request',
    load: async () => ({
      run: async (ctx) => {
        const res = await (await ctx.client()).request({ method: 'GET', path: '/x', signal: ctx.signal });
        ctx.io.stdout.write(JSON.stringify(res.body) + '\n');
      },
    }),
  },
];
const registry = new Registry([{ path: ['t'], description: 'test' }], commands);
let http: HttpStubs;
afterEach(() => http.verify());

async function run(signal: AbortSignal, env: Record<string, string> = {}) {
  const stdout = stream();
  const stderr = stream();
  const stdin = stream();
  const code = await runCli(['t', 'get'], {
    stdin,
    stdout,
    stderr,
    registry,
    signal,
    transport: http,
    env: {
      ADOPS_CONFIG_DIR: join(tempDir('adops-rc-'), 'cfg'),
      ADOPS_API_KEY: 'acr_run_1234',
      ADOPS_BASE_URL: 'https://api.adops.test',
      ...env,
    },
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe('runner and client', () => {
  it('an already-aborted run exits 130 and sends nothing', async () => {
    http = new HttpStubs();
    const ac = new AbortController();
    ac.abort(abortReasonFor('SIGINT'));
    expect((await run(ac.signal)).code).toBe(130);
    expect(http.requests).toHaveLength(0);
  });

  it('SIGTERM exits 143, SIGINT 130', () => {
    expect(toReport(abortReasonFor('SIGTERM')).exitCode).toBe(143);
    expect(toReport(abortReasonFor('SIGINT')).exitCode).toBe(130);
  });

  it('goes through the injected transport with the key trimmed', async () => {
    http = new HttpStubs().on('GET', '/x', json(200, { ok: 1 }));
    const r = await run(new AbortController().signal, { ADOPS_API_KEY: 'acr_run_1234\r\n' });
    expect(r).toMatchObject({ code: 0, stdout: '{"ok":1}\n' });
    expect(http.requests[0]!.headers.authorization).toBe('Bearer acr_run_1234');
  });

  it('a key with a control character inside is refused before any request, exit 3, key not shown', async () => {
    http = new HttpStubs();
    const r = await run(new AbortController().signal, { ADOPS_API_KEY: 'acr_run\r1234' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/ADOPS_API_KEY/);
    expect(r.stderr).not.toContain('1234');
  });

  it('words a throttling wait for stderr', () => {
    expect(
      retryWaitNote({
        method: 'GET',
        url: '/x',
        attempt: 2,
        delayMs: 10_000,
        elapsedMs: 5_200,
        reason: '502 provider_error',
        throttled: true,
        provider: 'provider_a',
      }),
    ).toBe('provider_a is rate limiting (502 provider_error): waiting 10 s before retrying (attempt 3; 5 s so far)');
  });
});
