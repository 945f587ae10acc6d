// spawnSync's result, without blocking this process: a test whose sandbox runs
// in this process (helpers/demo-sandbox.ts) cannot wait in spawnSync for a
// child that talks to it (nothing would answer the child's requests).
import { spawn, type SpawnOptions } from 'node:child_process';

export interface SpawnedResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface SpawnAsyncOptions extends Omit<SpawnOptions, 'stdio'> {
  /** SIGKILLed after this many ms (as spawnSync's `timeout`). */
  timeout?: number;
  /** Written to stdin, which is then closed; undefined: stdin closed at once. */
  input?: string;
  /** Called with all of stderr so far, each time more arrives (a test waits for a line instead of sleeping). */
  onStderr?: (stderrSoFar: string) => void;
}

/** Runs `command args`, stdin closed after `input`; stdout and stderr read as UTF-8 (no character split between chunks). */
export function spawnAsync(command: string, args: readonly string[], opts: SpawnAsyncOptions = {}): Promise<SpawnedResult> {
  const { timeout, input, onStderr, ...rest } = opts;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...rest, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
      onStderr?.(stderr);
    });
    child.stdin.on('error', () => {}); // a child that exits without reading its input: its exit is the answer
    child.stdin.end(input ?? '');
    const timer = timeout === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}
