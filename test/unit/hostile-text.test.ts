// The fuzzers' hostile text (test/helpers/hostile-text.ts) reaches what `unit: 'binary'` reached, which it
// replaced: every scalar value can come (astral ones too, never a lone surrogate), and the hostile ones come often.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOSTILE_CODE_POINTS, hostileString, hostileUnit } from '../helpers/hostile-text.js';

const units = fc.sample(hostileUnit, { numRuns: 20_000, seed: 37 });
const codePoints = units.map((u) => u.codePointAt(0) ?? -1);

describe('hostile text', () => {
  it('is one code point a unit', () => {
    expect(units.every((u) => [...u].length === 1)).toBe(true);
  });

  it('gives every hostile code point, each often', () => {
    for (const cp of HOSTILE_CODE_POINTS) expect(codePoints.filter((c) => c === cp).length, `U+${cp.toString(16)}`).toBeGreaterThan(20);
  });

  it('gives code points of the whole range besides, astral and BMP, but no lone surrogate', () => {
    const others = codePoints.filter((c) => !HOSTILE_CODE_POINTS.includes(c));
    expect(others.filter((c) => c > 0xffff).length).toBeGreaterThan(5000);
    expect(others.some((c) => c > 0xdfff && c < 0x10000)).toBe(true);
    expect(others.some((c) => c < 0xd800)).toBe(true);
    expect(codePoints.some((c) => c >= 0xd800 && c <= 0xdfff)).toBe(false);
    expect(new Set(others).size).toBeGreaterThan(5000);
  });

  it('counts maxLength in code points', () => {
    for (const s of fc.sample(hostileString({ minLength: 1, maxLength: 3 }), { numRuns: 500, seed: 37 })) {
      expect([...s].length).toBeGreaterThanOrEqual(1);
      expect([...s].length).toBeLessThanOrEqual(3);
    }
  });
});
