// Quoted glob patterns of `assets upload` (CI YAML often passes them unexpanded):
// bash's rules through tinyglobby, over real files in a temp folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expandInputs } from '../../../src/flows/upload-files.js';
import { tempDir } from '../../helpers/temp.js';

let dir: string;
const shown = async (...inputs: string[]) => {
  const r = await expandInputs(inputs, dir);
  return { files: r.files.map((f) => f.shown).sort(), problems: r.problems };
};

beforeAll(() => {
  dir = tempDir('adops-glob-');
  mkdirSync(join(dir, 'cr', 'deep'), { recursive: true });
  for (const f of ['a1.png', 'b1.png', 'c1.png', 'hero.jpg', 'notes.txt', '.hidden.png', 'deep/d.png', 'deep/e.mp4']) writeFileSync(join(dir, 'cr', f), 'x');
});

describe('glob patterns', () => {
  it('braces pick several extensions', async () => {
    expect(await shown('cr/*.{png,jpg}')).toEqual({ files: ['cr/a1.png', 'cr/b1.png', 'cr/c1.png', 'cr/hero.jpg'], problems: [] });
  });

  it('a bracket class picks some first letters', async () => {
    expect(await shown('cr/[ab]*.png')).toEqual({ files: ['cr/a1.png', 'cr/b1.png'], problems: [] });
  });

  it('* stays in a folder, ** crosses folders, ? is one character, dot files are skipped', async () => {
    expect((await shown('cr/*.png')).files).toEqual(['cr/a1.png', 'cr/b1.png', 'cr/c1.png']);
    expect((await shown('cr/**/*.png')).files).toEqual(['cr/a1.png', 'cr/b1.png', 'cr/c1.png', 'cr/deep/d.png']);
    expect((await shown('cr/?1.png')).files).toEqual(['cr/a1.png', 'cr/b1.png', 'cr/c1.png']);
  });

  it('an absolute pattern works from any folder; a pattern matching nothing is named', async () => {
    const r = await expandInputs([join(dir, 'cr', 'deep', '*.mp4')], tmpdir());
    expect(r.files.map((f) => f.filename)).toEqual(['e.mp4']);
    expect((await shown('cr/*.gif')).problems).toEqual(['cr/*.gif: no file matches']);
    expect((await shown('nowhere/*.png')).problems).toEqual(['nowhere/*.png: no file matches']);
  });
});
