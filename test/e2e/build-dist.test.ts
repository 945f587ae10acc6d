// `npm run build`'s per-file dist/ (scripts/build-dist.mjs, esbuild, #37): every module of src/ has its .js at
// tsc's outDir layout, and the JSON the modules import sits beside them, so the helpers and benches that import a
// built module (dist/state/lock.js, dist/sandbox/index.js) and scripts/build.mjs find what they import. The type
// check is not the build's: `npm run lint` runs it.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../helpers/cli.js';

const SRC = join(ROOT, 'src');
const sources = readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => relative(SRC, join(e.parentPath, e.name)));

beforeAll(() => ensureBuilt());

it('every module of src/ is emitted at its place in dist/, and its JSON beside it', () => {
  const wanted = sources.filter((f) => f.endsWith('.json') || (f.endsWith('.ts') && !f.endsWith('.d.ts'))).map((f) => f.replace(/\.ts$/, '.js'));
  expect(wanted.length).toBeGreaterThan(300);
  expect(wanted.filter((f) => !existsSync(join(ROOT, 'dist', f)))).toEqual([]);
});

it('an emitted module that imports JSON with attributes loads in Node as it is', async () => {
  const built: Record<string, unknown> = await import(pathToFileURL(join(ROOT, 'dist', 'commands', '_shared', 'operation-data.js')).href);
  const inputsOf = built.inputsOf;
  if (typeof inputsOf !== 'function') throw new Error('dist/commands/_shared/operation-data.js exports no inputsOf');
  // operation-inputs.json, read through the emitted module: listInsights takes `since` in its query.
  expect(JSON.stringify(inputsOf('listInsights'))).toContain('"name":"since"');
});
