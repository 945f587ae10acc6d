// `npm run gen` in the order a developer works (docs/architecture.md, "Add an operation"): the
// operation's entry, its sandbox handler and the handler's id in its map are written together, and
// `tsc` accepts that handler only once gen has written the table that holds its id. So gen must not
// type-check (nor build, which does): here it runs on a copy of the tree whose handler map names an
// operation the table lacks (tsc refuses it, esbuild does not look), and must write what the tree holds.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/** What gen writes beside src/contract/generated/ (removed from the copy first, so each must come back). */
const WRITTEN = ['docs/cli.md', 'completions/adops.bash', 'completions/adops.zsh', 'completions/adops.fish', 'man/adops.1'];
/** What the copy holds: what gen reads, and the folders it writes into. */
const COPIED = ['src', 'scripts', 'docs', 'completions', 'man', 'package.json', 'tsconfig.json'];

describe('npm run gen', () => {
  it('runs on a tree that does not type-check yet (a handler whose id the table lacks) and writes what the tree holds', () => {
    const copy = tempDir('adops-gen-');
    for (const entry of COPIED) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    // The handler map's id union naming an operation whose entry gen has not put in the table yet.
    const handlers = join(copy, 'src/sandbox/routes/handlers.ts');
    writeFileSync(handlers, `${readFileSync(handlers, 'utf8')}\nexport type NotInTheTableYet = HandlerMap<'notInTheTableYet'>;\n`);
    for (const file of WRITTEN) rmSync(join(copy, file));

    const gen = spawnSync('npm', ['run', '--silent', 'gen'], { cwd: copy, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(gen.status, `${gen.stdout}\n${gen.stderr}`).toBe(0);

    const generated = readdirSync(join(ROOT, 'src/contract/generated')).map((f) => `src/contract/generated/${f}`);
    for (const file of [...WRITTEN, ...generated]) {
      expect(existsSync(join(copy, file)), file).toBe(true);
      expect(readFileSync(join(copy, file), 'utf8') === readFileSync(join(ROOT, file), 'utf8'), `${file} as gen writes it`).toBe(true);
    }
  }, 60_000);
});
