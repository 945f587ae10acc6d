// The step runner of `adops demo`, generic: a step runs adops itself (a child
// process of this very CLI, as a user would), shows `$ adops …` and its output
// as it comes, then says whether it behaved as expected (its exit code, a check
// of what it printed). The runner counts steps and failures and times the run;
// which steps make the tour is ./tour.ts's. The demo key reaches a step only
// through ADOPS_API_KEY: a step whose arguments hold it is refused.
import { spawn } from 'node:child_process';
import type { CommandContext } from '../../cli/context.js';
import { EXIT } from '../../cli/exit-codes.js';
import { InterruptedError } from '../../cli/errors.js';

export interface StepOptions {
  /** Variables that differ from the demo's for this step (ADOPS_BASE_URL of the race relay). */
  env?: Record<string, string>;
  /** Give the child the demo's own stdout and stderr (a terminal): its output is then not captured nor checked. */
  terminal?: boolean;
}

export interface StepResult {
  code: number;
  text: string;
  stdout: string;
}

/** Why a step's output is not what it should be, or undefined when it is. */
export type StepCheck = (r: StepResult) => string | undefined;

export interface StepRunner {
  /** Transcript text, as it is (stdout: the transcript is the result). */
  out(s: string): void;
  bold(s: string): string;
  dim(s: string): string;
  /** A comment line before a step: what it shows. */
  say(text: string): void;
  /** A step (or a part of the tour) that did not behave as expected: shown, warned, counted. */
  fail(why: string): void;
  /** One step: `$ adops ARGS`, its output, then whether it exited `expectCode` and passed `check`; its result if it did. */
  adops(args: string[], expectCode?: number, check?: StepCheck, opts?: StepOptions): Promise<StepResult | undefined>;
  /** The closing line (steps, failures, seconds) and the demo's exit code. */
  finish(): number;
  /** Stop the step running now, if any, and stop listening for Ctrl-C. */
  close(): void;
}

export interface StepSetup {
  /** The launcher each step runs (bin/adops.js). */
  bin: string;
  /** The steps' environment: the demo's config dir, base URL and key. */
  env: Record<string, string>;
  /** The demo key, which must never be on a command line. */
  key: string;
  /** When the demo started (Date.now()): the closing line says how long it took. */
  started: number;
}

const quote = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export function stepRunner(ctx: CommandContext, setup: StepSetup): StepRunner {
  const failures: string[] = [];
  let steps = 0;
  let child: Child | undefined;
  const onAbort = () => child?.kill('SIGTERM');
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  const out = (s: string) => void ctx.io.stdout.write(s);
  const bold = (s: string) => (ctx.output.color ? `\x1b[1m${s}\x1b[22m` : s);
  const dim = (s: string) => (ctx.output.color ? `\x1b[2m${s}\x1b[22m` : s);
  const fail = (why: string) => {
    failures.push(why);
    out(`✗ ${why}\n`);
    ctx.warn(`demo: ${why}`);
  };

  const adops: StepRunner['adops'] = async (args, expectCode = 0, check, opts = {}) => {
    if (ctx.signal.aborted) throw new InterruptedError();
    if (args.some((a) => a.includes(setup.key))) throw new Error('refusing to put the API key on a command line');
    steps++;
    out(`${bold(`$ adops ${args.map(quote).join(' ')}`)}\n`);
    const result = await spawnStep(setup, args, opts, out, (c) => (child = c));
    if (ctx.signal.aborted) throw new InterruptedError();
    if (result.code !== expectCode) {
      fail(`"adops ${args.join(' ')}" exited ${result.code}, expected ${expectCode}`);
      return undefined;
    }
    const problem = check?.(result);
    if (problem) {
      fail(`"adops ${args.join(' ')}": ${problem}`);
      return undefined;
    }
    if (expectCode !== 0) out(dim(`(exit ${result.code}, as expected)`) + '\n');
    return result;
  };

  const finish = () => {
    const seconds = ((Date.now() - setup.started) / 1000).toFixed(1);
    if (failures.length === 0) {
      out(`\ndemo: ${steps} steps, all behaved as expected (${seconds} s)\n`);
      return EXIT.ok;
    }
    out(`\ndemo: ${failures.length} of ${steps} steps did not behave as expected (${seconds} s)\n`);
    return EXIT.unexpected;
  };

  const close = () => {
    ctx.signal.removeEventListener('abort', onAbort);
    child?.kill('SIGTERM');
  };

  return { out, bold, dim, say: (text) => out(`\n${dim(`# ${text}`)}\n`), fail, adops, finish, close };
}

type Child = ReturnType<typeof spawn>;

/** Run one step's child: its output shown as it comes (`show`) and kept, all of it and stdout alone. */
function spawnStep(setup: StepSetup, args: string[], opts: StepOptions, show: (s: string) => void, track: (c: Child | undefined) => void) {
  return new Promise<StepResult>((done, reject) => {
    let text = '';
    let stdout = '';
    const c = spawn(process.execPath, [setup.bin, ...args], {
      env: { ...setup.env, ...opts.env },
      stdio: opts.terminal ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    });
    track(c);
    c.stdout?.on('data', (chunk: Buffer) => {
      const s = chunk.toString('utf8');
      stdout += s;
      text += s;
      show(s);
    });
    c.stderr?.on('data', (chunk: Buffer) => {
      const s = chunk.toString('utf8');
      text += s;
      show(s);
    });
    c.on('error', reject);
    c.on('close', (code, signal) => {
      track(undefined);
      if (!text.endsWith('\n') && text !== '') show('\n');
      done({ code: code ?? (signal ? 128 : 1), text, stdout });
    });
  });
}
