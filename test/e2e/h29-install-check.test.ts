// The install-time check (package.json "postinstall": bin/install-check.cjs,
// issue #29): on a Node without a complete node:sqlite, where better-sqlite3
// is not there (npm dropped the optional module it could not build), one line
// on stderr says what is missing and that the client works; otherwise nothing.
// It never fails the install: exit 0 whatever it finds. (.ci/pack-smoke also
// installs the tarball with no compiler and checks the line is said once.)
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const nodeSqlite = major >= 24 || (major === 23 && minor >= 11) || (major === 22 && minor >= 15);

/** Run the check as npm runs it: `node bin/install-check.cjs` in the package's directory. */
function check(dir: string) {
  return spawnSync(process.execPath, ['bin/install-check.cjs'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('postinstall: bin/install-check.cjs', () => {
  it('is the package\'s postinstall, shipped in the tarball ("bin" is in files)', () => {
    const pkg: { scripts: Record<string, string>; files: string[] } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.postinstall).toBe('node bin/install-check.cjs');
    expect(pkg.files).toContain('bin');
  });

  it(`without better-sqlite3 beside it: ${nodeSqlite ? 'silent (node:sqlite serves)' : 'one line naming what is missing and that the client works'}; exit 0`, () => {
    const pkgDir = tempDir('adops-h29-install-check-');
    mkdirSync(join(pkgDir, 'bin'));
    copyFileSync(join(ROOT, 'bin', 'install-check.cjs'), join(pkgDir, 'bin', 'install-check.cjs'));
    writeFileSync(join(pkgDir, 'package.json'), '{"name":"adops","version":"0.0.0"}\n');
    const r = check(pkgDir);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    if (nodeSqlite) {
      expect(r.stderr).toBe('');
    } else {
      const lines = r.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^adops: the sandbox .* needs SQLite: Node v20\.\S+ has no node:sqlite and the optional module better-sqlite3 could not be built here/,
      );
      expect(lines[0]).toMatch(/every client command works/);
    }
  });

  it('in this checkout (better-sqlite3 built, or node:sqlite): silent, exit 0', () => {
    const r = check(ROOT);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});
