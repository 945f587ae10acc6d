// The compiled path and query parameter validators (src/contract/generated/parameter-validators.js, #34) are
// current, refuse exactly the text the sandbox's own zod schemas refuse, for every parameter of every
// operation, and word what they refuse as a person reads it.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATIONS } from '../../../src/contract/operations.js';
import { schemasOf } from '../../../src/contract/operation-schemas.js';
import { checkRequest } from '../../../src/contract/request-check.js';
import { parameterValidatorsDeclaration, parameterValidatorsSource } from '../../../src/contract/request-schemas.js';
import { escape } from '../../../src/contract/validation-words.js';
import { isNode, publishedSchema, type Node } from '../../../src/contract/validator-build.js';
import { hostileString } from '../../helpers/hostile-text.js';

const generated = (name: string) => readFileSync(new URL(`../../../src/contract/generated/${name}`, import.meta.url), 'utf8');

/** Every path and query parameter: the operation, the part, its name, the sandbox's zod schema and the published one. */
const PARAMETERS = OPERATIONS.flatMap((op) =>
  (['params', 'query'] as const).flatMap((part) => {
    const schema = schemasOf(op.id)?.[part];
    if (!schema) return [];
    if (!(schema instanceof z.ZodObject)) throw new Error(`${op.id} ${part}: not an object schema`);
    const published = publishedSchema(schema, 'input').properties;
    return Object.entries(schema.shape).map(([name, zod]) => ({
      op: op.id,
      part,
      name,
      zod,
      published: isNode(published) && isNode(published[name]) ? published[name] : {},
    }));
  }),
);

/** Every number and string a schema names (bounds, lengths, choices, patterns), found wherever it sits in it. */
function facts(node: unknown, out: { numbers: number[]; lengths: number[]; words: string[]; patterns: string[] }) {
  if (Array.isArray(node)) node.forEach((n) => facts(n, out));
  if (!isNode(node)) return out;
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'minimum' || k === 'maximum') && typeof v === 'number') out.numbers.push(v);
    if ((k === 'minLength' || k === 'maxLength') && typeof v === 'number') out.lengths.push(v);
    if (k === 'enum' && Array.isArray(v)) out.words.push(...v.map(String));
    if (k === 'pattern' && typeof v === 'string') out.patterns.push(v);
    facts(v, out);
  }
  return out;
}

const ODD = ['', ' ', '0', '00', '-0', '-1', '1', '+1', '01', '1.0', '1.5', '1e2', ' 5', '5 ', '0x10', 'NaN', 'Infinity', 'null', 'true', '😀'];
const DATES = ['2026-09-01', '2026-11-1', '2026-02-30', '2028-02-29', '0000-01-01', '2026-9-01', '20260901', '2026-09-01T00:00:00Z'];

/** Text for one parameter: around each of its published facts, well-formed and not, and anything at all. */
function texts(published: Node): fc.Arbitrary<string> {
  const f = facts(published, { numbers: [], lengths: [], words: [], patterns: [] });
  const near = f.numbers.flatMap((n) => [n - 1, n, n + 1]).flatMap((n) => [String(n), `0${n}`, `${n}.0`, ` ${n}`]);
  const sized = f.lengths.flatMap((n) => [n - 1, n, n + 1].filter((l) => l >= 0)).flatMap((l) => ['x'.repeat(l), `acc_${'x'.repeat(Math.max(0, l - 4))}`]);
  // Two UTF-16 units, one code point each: the sandbox counts code points.
  const emoji = f.lengths.flatMap((n) => [Math.ceil(n / 2) + 1, n, n + 1].map((k) => '😀'.repeat(k)));
  const words = f.words.flatMap((w) => [w, w.toUpperCase(), w.toLowerCase(), `${w} `, w.slice(0, -1)]);
  const matching = f.patterns.map((p) => fc.stringMatching(new RegExp(p)));
  const base = fc.oneof(
    fc.constantFrom(...ODD, ...DATES, ...near, ...sized, ...emoji, ...(words.length ? words : ['x'])),
    fc.string(),
    hostileString({ maxLength: 12 }),
    fc.integer({ min: -1000, max: 1_000_000 }).map(String),
    fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    ...matching,
  );
  // …and each of those with a character more at either end.
  return fc.oneof(
    { arbitrary: base, weight: 4 },
    fc.tuple(base, fc.constantFrom('', ' ', '0', 'x', '\n', '.5')).map(([t, s]) => `${t}${s}`),
    fc.tuple(fc.constantFrom('', ' ', '0', '-', '+'), base).map(([s, t]) => `${s}${t}`),
  );
}

describe('parameter validators', () => {
  it('src/contract/generated/parameter-validators.js (and its .d.ts) are current (regenerate: npm run gen)', () => {
    expect(generated('parameter-validators.js') === parameterValidatorsSource()).toBe(true);
    expect(generated('parameter-validators.d.ts')).toBe(parameterValidatorsDeclaration());
  });

  it('cover every path and query parameter of the contract', () => {
    expect(PARAMETERS.length).toBeGreaterThan(100);
    expect(PARAMETERS.filter((p) => p.part === 'query').map((p) => p.name)).toEqual(expect.arrayContaining(['limit', 'cursor', 'revision', 'since', 'ids']));
  });

  it("refuse exactly the text the sandbox's own zod schema refuses, parameter by parameter", async () => {
    const cases = fc.oneof(...PARAMETERS.map((p) => texts(p.published).map((text) => ({ p, text }))));
    await fc.assert(
      fc.asyncProperty(cases, async ({ p, text }) => {
        const cli = (await checkRequest(p.op, p.part, { [p.name]: text })).filter((i) => i.pointer === `/${escape(p.name)}`);
        const shown = JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}… (${text.length} units)` : text);
        expect(cli.length === 0, `${p.op} ${p.part} ${p.name}=${shown}: ${JSON.stringify(cli)}`).toBe(z.safeParse(p.zod, text).success);
      }),
      // About 60 texts a parameter.
      { numRuns: PARAMETERS.length * 60 },
    );
  });

  it('require what the sandbox requires', async () => {
    for (const op of OPERATIONS) {
      for (const part of ['params', 'query'] as const) {
        const schema = schemasOf(op.id)?.[part];
        if (!schema) continue;
        const sandbox = (schema.safeParse({}).error?.issues ?? []).map((i) => `/${i.path.join('/')}`).sort();
        const cli = (await checkRequest(op.id, part, {})).map((i) => i.pointer).sort();
        expect(cli, `${op.id} ${part}`).toEqual(sandbox);
      }
    }
  });

  it('word a number read from text by its bounds; its pattern only when the number alone would pass', async () => {
    const limit = async (text: string) => (await checkRequest('listCampaigns', 'query', { limit: text })).map((i) => i.text);
    expect(await limit('501')).toEqual(['must be at most 500']);
    expect(await limit('-5')).toEqual(['must be at least 1']);
    expect(await limit('ten')).toEqual(['must be a whole number']);
    expect(await limit('1e2')).toEqual(['must match ^[0-9]{1,4}$']);
    expect(await limit('0500')).toEqual([]);
    expect((await checkRequest('deleteSkill', 'query', { revision: '0' })).map((i) => i.text)).toEqual(['must be at least 1']);
  });

  it('word a date that is not one once, as a calendar date (not also by its pattern)', async () => {
    expect(await checkRequest('listInsights', 'query', { since: '2026-11-1', until: '2026-11-30' })).toEqual([
      { pointer: '/since', text: 'must be a real calendar date YYYY-MM-DD' },
    ]);
  });

  it('leave a parameter the operation does not list to the caller (it warns, and sends it)', async () => {
    expect(await checkRequest('listCampaigns', 'query', { timegrain: 'week' })).toEqual([]);
  });
});
