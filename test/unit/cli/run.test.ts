// The runner in-process with injected streams (TTY on/off), env and registry:
// shared behaviour applied once — output choice, prompts only when allowed,
// destructive confirmation, usage errors, error → exit code and format.
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/errors.js';
import { Registry, type CommandSpec } from '../../../src/cli/registry.js';
import type { Prompter } from '../../../src/cli/prompter.js';
import { runCli } from '../../../src/cli/run.js';
import { tempDir } from '../../helpers/temp.js';

function stream(isTTY: boolean) {
  const s = new PassThrough() as PassThrough & { isTTY?: boolean };
  s.isTTY = isTTY;
  let text = '';
  s.on('data', (c) => (text += c));
  return Object.assign(s, { text: () => text });
}

const calls: unknown[] = [];
const mod = (fn: CommandSpec['load']) => fn;
const commands: CommandSpec[] = [
  {
    path: ['t', 'show'],
    description: 'show the context',
    args: [{ name: 'id', description: 'an id', required: true }],
    load: mod(async () => ({
      run: async (ctx, input) => {
        calls.push({ format: ctx.output.format, interactive: ctx.interactive, fancy: ctx.fancy, color: ctx.output.color, args: input.args });
        ctx.io.stdout.write('result\n');
        ctx.note('a message');
      },
    })),
  },
  {
    path: ['t', 'remove'],
    description: 'remove a thing',
    destructive: true,
    load: mod(async () => ({ run: async (ctx) => void ctx.io.stdout.write('removed\n') })),
  },
  {
    path: ['t', 'fail'],
    description: 'fail like the service',
    load: mod(async () => ({
      run: async () => {
        throw new ApiError({
          status: 402,
          body: { error: 'organization_unentitled', message: 'no \u001b[31msubscription', paywallUrl: 'https://pay.example/x' },
          method: 'GET',
          path: '/x',
        });
      },
    })),
  },
  {
    path: ['t', 'invalid'],
    description: 'fail with issues',
    load: mod(async () => ({
      run: async () => {
        throw new ApiError({
          status: 400,
          body: { error: 'invalid_request', message: 'bad body', issues: [{ in: 'body', path: '/name', message: 'required' }] },
          method: 'POST',
          path: '/x',
        });
      },
    })),
  },
];
const registry = new Registry([{ path: ['t'], description: 'test group' }], commands);

async function run(argv: string[], opts: { tty?: boolean; env?: Record<string, string>; prompter?: Prompter } = {}) {
  const tty = opts.tty ?? false;
  const stdin = stream(tty);
  const stdout = stream(tty);
  const stderr = stream(tty);
  const env = { ADOPS_CONFIG_DIR: join(tempDir('adops-run-'), 'cfg'), ...opts.env };
  const code = await runCli(argv, {
    stdin,
    stdout,
    stderr,
    env,
    registry,
    signal: new AbortController().signal,
    ...(opts.prompter ? { prompter: opts.prompter } : {}),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const answering = (answers: { text?: string; confirm?: boolean }): Prompter => ({
  secret: async () => 'acr_x',
  text: async () => answers.text ?? '',
  confirm: async () => answers.confirm ?? false,
  choose: async (_m, choices) => choices[0] ?? '',
});

describe('runner', () => {
  it('keeps stdout for results and messages on stderr; json off a TTY, table on one', async () => {
    calls.length = 0;
    const piped = await run(['t', 'show', 'a1']);
    expect(piped).toMatchObject({ code: 0, stdout: 'result\n', stderr: 'a message\n' });
    const tty = await run(['t', 'show', 'a1'], { tty: true });
    expect(calls).toEqual([
      { format: 'json', interactive: false, fancy: false, color: false, args: { id: 'a1' } },
      { format: 'table', interactive: true, fancy: true, color: true, args: { id: 'a1' } },
    ]);
    expect(tty.code).toBe(0);
  });

  it('turns colour, spinners and prompts off under CI and NO_COLOR even on a TTY', async () => {
    calls.length = 0;
    await run(['t', 'show', 'a1'], { tty: true, env: { CI: 'true' } });
    await run(['t', 'show', 'a1', '--no-input'], { tty: true, env: { NO_COLOR: '1' } });
    expect(calls).toMatchObject([
      { interactive: false, fancy: false, color: false },
      { interactive: false, fancy: true, color: false },
    ]);
  });

  it('a missing argument is a usage error off a TTY, and is asked for on one', async () => {
    const piped = await run(['t', 'show']);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/missing argument <id>/);
    calls.length = 0;
    const asked = await run(['t', 'show'], { tty: true, prompter: answering({ text: 'typed' }) });
    expect(asked.code).toBe(0);
    expect(calls).toMatchObject([{ args: { id: 'typed' } }]);
  });

  it('destructive commands need --yes off a TTY and confirmation on one', async () => {
    expect((await run(['t', 'remove'])).code).toBe(2);
    expect((await run(['t', 'remove', '--yes'])).stdout).toBe('removed\n');
    expect((await run(['t', 'remove'], { tty: true, prompter: answering({ confirm: false }) })).stdout).toBe('');
    expect((await run(['t', 'remove'], { tty: true, prompter: answering({ confirm: true }) })).stdout).toBe('removed\n');
  });

  it('unknown flags and commands are usage errors (exit 2)', async () => {
    expect((await run(['t', 'show', 'x', '--bogus'])).code).toBe(2);
    expect((await run(['nope'])).code).toBe(2);
    expect((await run(['t', 'show', 'x', '--output', 'xml'])).code).toBe(2);
  });

  it('prints the service error, its action with the paywall URL, strips control chars, exits 3', async () => {
    const r = await run(['t', 'fail']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('organization_unentitled (402): no subscription');
    expect(r.stderr).toContain('https://pay.example/x');
    expect(r.stderr).not.toContain('\u001b');
  });

  it('prints each issue as `in path: message`, exit 7', async () => {
    const r = await run(['t', 'invalid']);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('body /name: required');
  });

  it('with --output json the error is one JSON object on stderr', async () => {
    const r = await run(['t', 'invalid', '--output', 'json']);
    const parsed = JSON.parse(r.stderr);
    expect(parsed.error).toMatchObject({
      code: 'invalid_request',
      status: 400,
      retryable: false,
      exitCode: 7,
      issues: [{ in: 'body', path: '/name', message: 'required' }],
    });
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a group without a subcommand prints its help', async () => {
    const r = await run(['t']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Subcommands:');
  });
});
