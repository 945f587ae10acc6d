// The contract is what the client and the sandbox share: it imports neither,
// nor anything of the CLI (architecture: "never imports either").
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIR = fileURLToPath(new URL('../../../src/contract', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('src/contract', () => {
  it('imports nothing of the client, the CLI, the flows or the sandbox', () => {
    const bad = files(DIR).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/from '([^']+)'/g)]
        .map((m) => m[1]!)
        .filter((p) => /\/(client|cli|commands|flows|sandbox|config)\//.test(p))
        .map((p) => `${f}: ${p}`),
    );
    expect(bad).toEqual([]);
  });
});
