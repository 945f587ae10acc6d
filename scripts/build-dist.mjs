#!/usr/bin/env node
// The per-file dist/ (dist/cli/*.js, dist/sandbox/**/*.js, ...): every module of src/ transpiled on its own by
// esbuild, the layout tsc's outDir gave (rootDir src), plus the JSON the modules import. scripts/build.mjs reads
// it (the help pages, the demo world's image), and so do the test helpers that import a built module and the benches.
// Why not `tsc -p tsconfig.json` (#37, docs/performance.md "#37 (session 3): CI"): its emit was a full type check
// (~28 s of CPU) run by every build, five builds in one CI run; this is under a second. The type check has one home:
// `npm run lint` (`tsc -p test`: src and test as one program under the project's options) and `npm run typecheck`.
// Per-file transpiling is sound here because the sources need no type information to emit: tsconfig.json has
// verbatimModuleSyntax (type-only imports say so, which esbuild reads from tsconfig.json too) and src has no
// enum, namespace or decorator.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const out = join(root, 'dist');

const files = readdirSync(src, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => join(e.parentPath, e.name));
const modules = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));

await build({
  absWorkingDir: root,
  entryPoints: modules,
  outdir: out,
  outbase: src,
  bundle: false,
  format: 'esm',
  platform: 'node',
  // engines.node: import attributes (`with { type: 'json' }`) are kept as written from 20.10 on.
  target: 'node20.19',
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'warning',
});

// JSON beside the modules that import it (tsc's resolveJsonModule copied it). The generated validators (plain .js)
// are copied by scripts/build.mjs.
for (const f of files.filter((f) => f.endsWith('.json'))) {
  const to = join(out, relative(src, f));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(f, to);
}
