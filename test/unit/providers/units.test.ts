import { describe, expect, it } from 'vitest';
import {
  checkWholeAmount,
  currencyDecimals,
  microsToWhole,
  minorToWhole,
  wholeToDecimalString,
  wholeToMicros,
  wholeToMinor,
  wholeToWhole,
} from '../../../src/sandbox/providers/units.js';

describe('money units', () => {
  it('knows currencies without or with three minor digits', () => {
    expect([currencyDecimals('USD'), currencyDecimals('JPY'), currencyDecimals('KWD'), currencyDecimals('XYZ')]).toEqual([2, 0, 3, 2]);
  });
  it('converts provider units to whole units, null when the currency is unknown', () => {
    expect(minorToWhole('5000', 'USD')).toBe(50);
    expect(minorToWhole(1234, 'USD')).toBe(12.34);
    expect(minorToWhole('5000', 'JPY')).toBe(5000);
    expect(minorToWhole('5000', 'BHD')).toBe(5);
    expect(minorToWhole('5000', null)).toBeNull();
    expect(microsToWhole(120_000_000, 'USD')).toBe(120);
    expect(microsToWhole(12_345_000, 'USD')).toBe(12.345);
    expect(microsToWhole(1, null)).toBeNull();
    expect(wholeToWhole('40.00', 'USD')).toBe(40);
  });
  it('converts whole units back exactly', () => {
    expect(wholeToMinor(12.34, 'USD')).toBe(1234);
    expect(wholeToMinor(0.29, 'USD')).toBe(29); // 0.29 * 100 = 28.999999999999996 in floats
    expect(wholeToMinor(500, 'JPY')).toBe(500);
    expect(wholeToMicros(1.1)).toBe(1_100_000);
    expect(wholeToDecimalString(5, 'USD')).toBe('5.00');
  });
  it('refuses amounts that cannot be written', () => {
    expect(checkWholeAmount(10.5, 'USD').ok).toBe(true);
    expect(checkWholeAmount(0.29, 'USD').ok).toBe(true);
    for (const [amount, currency] of [
      [-1, 'USD'],
      [Number.NaN, 'USD'],
      [Infinity, 'USD'],
      [12.345, 'USD'],
      [10.5, 'JPY'],
      ['10', 'USD'],
      [10, null],
    ] as const) {
      expect(checkWholeAmount(amount, currency).ok, `${String(amount)} ${String(currency)}`).toBe(false);
    }
  });
});
