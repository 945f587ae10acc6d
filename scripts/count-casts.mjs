// Counts type assertions in src/ (or another folder: `node scripts/count-casts.mjs test`)
// with the TypeScript parser (not a regex): `x as T` and `<T>x`, leaving out
// `as const`. Prints the total, the `as unknown as` double casts, and the count
// per top-level folder. test/unit/casts.test.ts holds the budgets and fails
// when src/ or test/ goes over them.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export function countCasts(root, folder = 'src') {
  const perFile = new Map();
  let total = 0;
  let doubles = 0;
  const walkDir = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walkDir(path);
      else if (name.endsWith('.ts')) countFile(path);
    }
  };
  const countFile = (path) => {
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    let n = 0;
    const visit = (node) => {
      if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
        const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
        if (!isConst) {
          n++;
          if (ts.isAsExpression(node.expression) && node.expression.type.kind === ts.SyntaxKind.UnknownKeyword) doubles++;
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (n > 0) perFile.set(relative(root, path), n);
    total += n;
  };
  walkDir(join(root, folder));
  return { total, doubles, perFile };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const folder = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'src';
  const { total, doubles, perFile } = countCasts(process.cwd(), folder);
  const perFolder = new Map();
  for (const [file, n] of perFile) {
    const folder = file.split('/').slice(0, 2).join('/');
    perFolder.set(folder, (perFolder.get(folder) ?? 0) + n);
  }
  console.log(`casts: ${total} (as unknown as: ${doubles})`);
  for (const [folder, n] of [...perFolder].sort((a, b) => b[1] - a[1])) console.log(`  ${folder}: ${n}`);
  if (process.argv.includes('--files')) for (const [f, n] of [...perFile].sort((a, b) => b[1] - a[1])) console.log(`${n}\t${f}`);
}
