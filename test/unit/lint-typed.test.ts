// scripts/lint-typed.mjs, `npm run lint`'s type check and typescript-eslint on one program (#37): on a small tree of
// its own, a type error and a floating promise (a rule that needs the checker) are both reported in one run, each
// failing it, and a clean tree passes. If the program were not handed to ESLint the typed rule would not run and
// the second case would not be reported; if the type check were skipped, the first.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const SCRIPT = join(ROOT, 'scripts', 'lint-typed.mjs');
const TSESLINT = pathToFileURL(createRequire(join(ROOT, 'package.json')).resolve('typescript-eslint')).href;

function tree(files: Record<string, string>): string {
  const dir = tempDir('adops-lint-');
  // lib named: without it ES2022's default takes the DOM's declarations too (~0.7 s of CPU per run; nothing here uses them).
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    lib: ['ES2022'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: [],
    skipLibCheck: true,
  };
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
  writeFileSync(
    join(dir, 'eslint.config.mjs'),
    `import tseslint from ${JSON.stringify(TSESLINT)};
export default tseslint.config({
  files: ['**/*.ts'],
  extends: [tseslint.configs.base],
  languageOptions: { parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname } },
  rules: { '@typescript-eslint/no-floating-promises': 'error' },
});
`,
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function lint(dir: string) {
  return spawnSync(process.execPath, [SCRIPT, '--project', 'tsconfig.json', '--config', 'eslint.config.mjs', '.'], { cwd: dir, encoding: 'utf8' });
}

it('reports a type error and a typed rule in one run, and fails', () => {
  const r = lint(
    tree({
      'wrong-type.ts': "export const n: number = 'not a number';\n",
      'floating.ts': 'async function work(): Promise<void> {}\nwork();\nexport {};\n',
    }),
  );
  expect(r.status, r.stderr).toBe(1);
  expect(r.stdout).toMatch(/wrong-type\.ts\(1,14\): error TS2322/);
  expect(r.stdout).toContain('1 type error(s) in tsconfig.json');
  expect(r.stdout).toMatch(/floating\.ts\n\s+2:1\s+error\s+Promises must be awaited.*@typescript-eslint\/no-floating-promises/);
});

it('passes a clean tree, saying nothing', () => {
  const r = lint(tree({ 'fine.ts': 'async function work(): Promise<void> {}\nawait work();\nexport {};\n' }));
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe('');
  expect(r.status).toBe(0);
});
