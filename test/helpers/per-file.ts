// A resource that lives as long as the test file: started in beforeAll,
// stopped in afterAll. `running()` gives it inside tests and hooks, and says
// so when read before it started (at import time, say).
import { afterAll, beforeAll } from 'vitest';

export function perFile<T>(what: string, start: () => Promise<T>, stop: (it: T) => Promise<unknown>, timeoutMs?: number): () => T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  }, timeoutMs);
  afterAll(async () => {
    if (started !== undefined) await stop(started);
  });
  return () => {
    if (started === undefined) throw new Error(`${what} starts in beforeAll; read it inside a test or a hook`);
    return started;
  };
}
