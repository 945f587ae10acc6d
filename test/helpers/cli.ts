// Run the BUILT adops binary as a user would: piped, or under a pseudo-terminal
// (util-linux `script`), with an explicit environment (no CI leaking in from the
// runner unless a test asks for it), and start a sandbox child on port 0.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { perFile } from './per-file.js';
import { spawnAsync } from './spawn-async.js';
import { tempDir } from './temp.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'adops.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : entry.name.endsWith('.ts') ? statSync(p).mtimeMs : 0);
  }
  return newest;
}

/**
 * Build dist/ once if it is missing or older than src/ (npm test builds first,
 * so this matters only when running e2e files alone). A lock directory keeps
 * two vitest workers from building at the same time.
 */
export function ensureBuilt(): void {
  // The binary runs dist/bundle (esbuild, after tsc): judge freshness by it, so
  // an e2e file run alone after editing src/ never tests a stale bundle.
  const main = join(ROOT, 'dist', 'bundle', 'main.js');
  const fresh = () => existsSync(main) && statSync(main).mtimeMs >= newestMtime(join(ROOT, 'src'));
  if (fresh()) return;
  const lock = join(ROOT, 'dist', '.build-lock');
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (let i = 0; i < 600; i++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (fresh()) return;
      spawnSync('sleep', ['0.2']);
    }
  }
  try {
    // The per-file dist/ as `npm run build` makes it (no type check: we only need the JS).
    const dist = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-dist.mjs')], { cwd: ROOT, encoding: 'utf8' });
    if (dist.status !== 0) throw new Error(`scripts/build-dist.mjs failed:\n${dist.stderr}`);
    const bundle = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
    if (bundle.status !== 0) throw new Error(`scripts/build.mjs failed:\n${bundle.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A config dir path that does not exist yet (adops creates it), inside a tempDir() removed after the file. */
export function tempConfigDir(): string {
  return join(tempDir('adops-e2e-'), 'config');
}

/** A clean environment: PATH, HOME and the test file's TMPDIR (helpers/temp-setup.ts) only, plus what the test gives. */
export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' };
  if (process.env.TMPDIR !== undefined) env.TMPDIR = process.env.TMPDIR;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Text for stdin; undefined closes stdin at once (never a terminal). */
  stdin?: string;
  timeoutMs?: number;
  /** Called with all of stderr so far, each time more arrives (a test waits for a line instead of sleeping). */
  onStderr?: (stderrSoFar: string) => void;
}

/** Piped run: stdout and stderr apart, stdin closed unless given. */
export async function runAdops(args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const started = Date.now();
  const r = await spawnAsync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: baseEnv(opts.env),
    timeout: opts.timeoutMs ?? 15_000,
    ...(opts.stdin !== undefined ? { input: opts.stdin } : {}),
    ...(opts.onStderr ? { onStderr: opts.onStderr } : {}),
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Run under a pseudo-terminal: stdin, stdout and stderr are all the pty, so
 * their text arrives merged (with \r\n). `input` is typed after `delayMs`.
 */
export function runAdopsTty(
  args: readonly string[],
  opts: RunOptions & { input?: string; delayMs?: number; waitFor?: string; cols?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    const started = Date.now();
    // A real terminal has a size; script(1)'s pty starts at 0x0 (`cols: 0` keeps that, as some CI runners do).
    const cols = opts.cols ?? 200;
    const cmd = `stty cols ${cols} rows 50; ` + [process.execPath, BIN, ...args].map(shellQuote).join(' ');
    const child = spawn('script', ['-qec', cmd, '/dev/null'], {
      cwd: ROOT,
      env: baseEnv({ TERM: 'xterm', ...(cols > 0 ? { COLUMNS: String(cols) } : {}), ...opts.env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let typed = false;
    const type = () => {
      if (typed || opts.input === undefined) return;
      typed = true;
      // A little after the prompt shows, so it has put the terminal in raw mode (no echo).
      setTimeout(() => child.stdin.write(opts.input!), opts.delayMs ?? 300);
    };
    const onData = (c: Buffer) => {
      out += c.toString();
      if (opts.waitFor !== undefined && out.includes(opts.waitFor)) type();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    if (opts.waitFor === undefined) type();
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 15_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: out, stderr: '', ms: Date.now() - started });
    });
  });
}

export interface SandboxChild {
  url: string;
  process: ChildProcess;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `adops sandbox serve --port 0 --data :memory: --ingest-every 0` (ingestion only when a test asks) as a child; resolves on its "listening on" line. */
export function startSandboxChild(extraArgs: readonly string[] = [], env: Record<string, string | undefined> = {}): Promise<SandboxChild> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--data', ':memory:', '--ingest-every', '0', ...extraArgs], {
      cwd: ROOT,
      env: baseEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${err}`)), 30_000);
    child.stderr.on('data', (c) => (err += c));
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
        resolve({
          url: m[1]!,
          process: child,
          stderr: () => err,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.on('close', (code) => reject(new Error(`sandbox exited ${code}: ${err}`)));
  });
}

/**
 * One sandbox child for the whole file: beforeAll checks the build and starts
 * it, afterAll stops it. The handle is usable at once but reaches the child
 * only inside tests and hooks (`const sandbox = useSandboxChild(); ... sandbox.url`).
 */
export function useSandboxChild(extraArgs: readonly string[] = [], env: Record<string, string | undefined> = {}): SandboxChild {
  const running = perFile(
    'useSandboxChild: the sandbox child',
    () => {
      ensureBuilt();
      return startSandboxChild(extraArgs, env);
    },
    (child) => child.stop(),
    60_000,
  );
  return {
    get url() {
      return running().url;
    },
    get process() {
      return running().process;
    },
    stderr: () => running().stderr(),
    stop: (signal) => running().stop(signal),
  };
}

/** Demo keys of the default world (public fixtures). */
export const DEMO = {
  full: 'acr_demo_acme_full_0001',
  globex: 'acr_demo_globex_full_0001',
  observeOnly: 'acr_demo_acme_observe_only_0001',
  revoked: 'acr_demo_acme_revoked_0001',
  memberLeft: 'acr_demo_acme_member_left_0001',
  unsubscribed: 'acr_demo_initech_unsubscribed_0001',
};
