#!/usr/bin/env node
// package.json "prepare". npm runs it after `npm install`/`npm ci` in a checkout
// and, what it is here for, when adops is installed from a git URL
// (`npm install -g git+https://…`): npm then clones, installs the
// devDependencies in the clone, runs `prepare` (never `prepack`), packs and
// installs the result. A tree without dist/bundle gets it built here; a built
// one is left as it is (`npm run build` rebuilds; `npm pack` builds in prepack).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(`${root}dist/bundle/main.js`)) {
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
}
