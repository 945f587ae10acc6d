// What `adops sandbox serve` evaluates before it listens (#16): the chunk
// holding src/sandbox/index.ts and every chunk it imports statically hold no
// zod, Hono, @hono/node-server (which loads undici through the global
// Response), routes, services or world generator: those are in chunks loaded
// with import() (runtime.ts, fixtures/load.ts), after listening when the store
// already holds its world (sandbox-listens-first.test.ts runs it). Read from the built chunks and dist/bundle/meta.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { bundleOutputs, fileHolding, ROOT, type BundleOutput } from '../helpers/cli.js';

let outputs: Record<string, BundleOutput>;
beforeAll(() => {
  outputs = bundleOutputs();
});

/** The chunk and every chunk it reaches by static imports. */
function staticClosure(chunk: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(ROOT, 'dist', 'bundle', file), 'utf8');
    // The chunks are CommonJS (scripts/bundle-commonjs.mjs): a static import is a require() at the top level; an
    // import() a require() inside __adopsImport(() => ...), not on a line of its own.
    for (const m of text.matchAll(/^var [\w$]+ = require\("\.\/([^"]+)"\);$/gm)) visit(m[1]!);
  };
  visit(chunk);
  return [...seen];
}

it("the sandbox's entry loads only what opening the store and the socket needs", () => {
  const closure = staticClosure(fileHolding(outputs, 'src/sandbox/index.ts'));
  // The check reads the requires (it can fail): the entry reaches chunks it shares with the rest of the CLI.
  expect(closure.length).toBeGreaterThan(1);
  const inputs = closure.flatMap((f) => outputs[f]?.inputs ?? [`${f} (not in meta.json: stale build?)`]);
  const heavy = inputs.filter((i) =>
    /node_modules\/(zod|hono|@hono)\/|src\/sandbox\/(app|services|runtime)\.ts|src\/sandbox\/routes\/|fixtures\/(load|demo|schema)\.ts|providers\/demo-entities\.ts|ingest\//.test(
      i,
    ),
  );
  expect(heavy).toEqual([]);
  expect(inputs).toContain('src/sandbox/fixtures/snapshot.ts');
  expect(inputs).toContain('src/sandbox/server.ts');
  // And the routes are reachable: the runtime is a chunk of its own.
  expect(Object.values(outputs).some((o) => o.inputs.includes('src/sandbox/runtime.ts') && o.inputs.includes('src/sandbox/app.ts'))).toBe(true);
});
