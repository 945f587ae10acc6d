// Only src/client opens sockets on the CLI side (issue 25); the sandbox is the
// service side. The dependency-cruiser rule `only-the-client-opens-sockets`
// holds it in lint; this holds it in the test run too, dynamic imports and
// bare module names included.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');
const SOCKET_MODULES =
  /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"](?:node:)?(?:http|https|http2|net|tls|dgram)['"]|(?:from\s+|import\s*\(\s*)['"]undici(?:\/[^'"]*)?['"]/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.(ts|mts|js)$/.test(e.name) ? [p] : [];
  });
}

describe('one transport for every byte', () => {
  it('no file outside src/client and src/sandbox imports a socket module', () => {
    const offenders = sources(join(ROOT, 'src'))
      .map((f) => relative(ROOT, f))
      .filter((f) => !/^src\/(client|sandbox)\//.test(f))
      .filter((f) => SOCKET_MODULES.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the check sees the imports it forbids', () => {
    for (const line of [
      "import { request } from 'node:http';",
      "await import('node:https')",
      "import type { Socket } from 'net';",
      "import { Pool } from 'undici';",
    ])
      expect(SOCKET_MODULES.test(line), line).toBe(true);
    expect(SOCKET_MODULES.test("import { x } from './http.js';")).toBe(false);
  });
});
