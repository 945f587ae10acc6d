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

/** Runs `command args` with stdin closed; SIGKILLed after `timeout` ms (as spawnSync's `timeout`). */
export function spawnAsync(command: string, args: readonly string[], opts: Omit<SpawnOptions, 'stdio'> & { timeout?: number } = {}): Promise<SpawnedResult> {
  const { timeout, ...rest } = opts;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...rest, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = timeout === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeout);
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}
