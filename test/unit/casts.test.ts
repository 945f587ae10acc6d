// The cast budget is a test: type assertions (`x as T`, `<T>x`; `as const` is
// not one) are where the compiler stops checking, so their number may only go
// down. Counted with the TypeScript parser by scripts/count-casts.mjs
// (`npm run casts`, or `node scripts/count-casts.mjs test --files` for where
// they are). Removed some? Lower the budget here so they cannot creep back.
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countCasts } from '../../scripts/count-casts.mjs';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

/** Casts allowed per folder, and how many of them may be `as unknown as` double casts. */
const BUDGETS = {
  // 64: the lazily loaded, generated validators are typed by one cast (src/contract/validation-words.ts
  // validatorsLoader, for requests, parameters and answers alike), and the completion sources the resources module
  // builds by one.
  src: { total: 64, doubles: 0 },
  // Tests cast more: hostile payloads and wrong shapes fed on purpose, JSON read back as rows. (The contract fuzzer,
  // test/fuzz, reads what it generates through type guards: none.)
  test: { total: 270, doubles: 4 },
} as const;

/** The files holding the most casts, for the failure message. */
function worst(perFile: Map<string, number>, n = 10): string {
  return [...perFile]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([file, count]) => `${count}\t${file}`)
    .join('\n');
}

describe('cast budget', () => {
  for (const [folder, budget] of Object.entries(BUDGETS)) {
    it(`${folder}/ holds at most ${budget.total} type assertions, ${budget.doubles} of them \`as unknown as\``, () => {
      const { total, doubles, perFile } = countCasts(ROOT, folder);
      expect(total, `${folder}/ has ${total} casts, over its budget of ${budget.total}; most are in:\n${worst(perFile)}`).toBeLessThanOrEqual(budget.total);
      expect(doubles, `${folder}/ has ${doubles} \`as unknown as\` casts, over its budget of ${budget.doubles}`).toBeLessThanOrEqual(budget.doubles);
    });
  }

  it('counts what it should: `as T` and `<T>x` are casts, `as const` is not', () => {
    const root = tempDir('adops-casts-');
    mkdirSync(join(root, 'src'));
    writeFileSync(
      join(root, 'src', 'a.ts'),
      'const a = 1 as number;\nconst b = <string>(a as unknown);\nconst c = [1] as const;\nconst d = a as unknown as string;\n',
    );
    const { total, doubles, perFile } = countCasts(root, 'src');
    expect({ total, doubles, files: [...perFile] }).toEqual({ total: 5, doubles: 1, files: [['src/a.ts', 5]] });
  });
});
