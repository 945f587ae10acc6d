// A row's identity in the journal of `mutations apply` is the hash of its
// body's canonical JSON: a journal written by an earlier adops must name the
// same rows, so the text and the hash are pinned here (values computed with the
// implementation they replaced: createHash + keys filtered, sorted, mapped).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyHash, rowIds } from '../../../src/flows/mutation-match.js';
import { canonicalJson } from '../../../src/contract/canonical-json.js';

const cases: Array<[Record<string, unknown>, string]> = [
  [{ advertiserId: 'acc_1', target: { type: 'campaign', id: '7' }, action: 'rename', name: 'Spring, "week" 1', extra: undefined }, '70870da1a44bc04c'],
  [{ z: [1, 'a', null, { b: 2, a: [true, false] }], a: {}, m: [], 'k"q': 1.5e300, u: '\u2028é' }, '6f74a785c4272c5a'],
  [{ action: 'set_budget', budget: { type: 'daily', amount: 10 }, advertiserId: 'x', target: { id: '1', type: 'ad_group' } }, '0ad010e2324d20c0'],
];

describe('row identities', () => {
  it('are the hashes earlier journals recorded', () => {
    for (const [body, hash] of cases) expect(bodyHash(body)).toBe(hash);
    expect(canonicalJson(cases[2]![0])).toBe(
      '{"action":"set_budget","advertiserId":"x","budget":{"amount":10,"type":"daily"},"target":{"id":"1","type":"ad_group"}}',
    );
    expect(canonicalJson({ a: {}, m: [], b: undefined })).toBe('{"a":{},"m":[]}');
  });

  it('do not depend on key order; a repeated row is numbered by occurrence', () => {
    const a = { action: 'pause', target: { id: '1', type: 'campaign' } };
    const b = { target: { type: 'campaign', id: '1' }, action: 'pause' };
    expect(rowIds([a, b])).toEqual([`${bodyHash(a)}#1`, `${bodyHash(a)}#2`]);
  });

  it("order keys as sort() does, however many and whatever they hold (an object's few keys are sorted in place)", () => {
    // The text before #37's in-place sort: keys by Array.prototype.sort, undefined members left out.
    const reference = (v: unknown): string => {
      if (Array.isArray(v)) return `[${v.map(reference).join(',')}]`;
      if (v === null || typeof v !== 'object') return JSON.stringify(v);
      const members = Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) // sort()'s order: UTF-16 code units
        .map(([k, x]) => `${JSON.stringify(k)}:${reference(x)}`);
      return `{${members.join(',')}}`;
    };
    // Integer-like keys (listed first by Object.keys, in number order), code units past the BMP, over 16 keys.
    const key = fc.oneof(fc.string({ maxLength: 4 }), fc.nat({ max: 200 }).map(String), fc.constantFrom('é', '\u{1F600}', 'Z', 'a', '_', '10', '9'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string(), fc.constant(undefined), fc.array(tie('node'), { maxLength: 3 }), tie('object')),
      object: fc.dictionary(key, tie('node'), { maxKeys: 24 }),
    })).object;
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 100 },
    );
    expect(canonicalJson({ b: 1, 10: 2, 9: 3, a: 4 })).toBe('{"10":2,"9":3,"a":4,"b":1}');
  });
});
