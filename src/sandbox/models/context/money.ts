// Plan amounts: whole units of the plan's ISO 4217 currency (spec: "amounts are
// whole units of the plan's currency"; 50 means 50.00). Stored as integers in
// minor units so sums and comparisons are exact. An amount is refused with 422
// invalid_amount when it is not positive, has more decimals than the currency,
// or is absurdly large.
import { fail } from '../../http/errors.js';

/** ISO 4217 codes the sandbox knows, with their minor-unit exponent (decimals). */
export const CURRENCY_DECIMALS: Readonly<Record<string, number>> = {
  AED: 2, ARS: 2, AUD: 2, BGN: 2, BHD: 3, BRL: 2, CAD: 2, CHF: 2, CLP: 0, CNY: 2, COP: 2, CZK: 2,
  DKK: 2, EGP: 2, EUR: 2, GBP: 2, HKD: 2, HUF: 2, IDR: 2, ILS: 2, INR: 2, ISK: 0, JOD: 3, JPY: 0,
  KES: 2, KRW: 0, KWD: 3, MAD: 2, MXN: 2, MYR: 2, NGN: 2, NOK: 2, NZD: 2, OMR: 3, PEN: 2, PHP: 2,
  PKR: 2, PLN: 2, QAR: 2, RON: 2, RSD: 2, SAR: 2, SEK: 2, SGD: 2, THB: 2, TND: 3, TRY: 2, TWD: 2,
  UAH: 2, USD: 2, UYU: 2, VND: 0, ZAR: 2,
};

/** Largest amount accepted, in whole units: far above any real plan, below float trouble. */
export const AMOUNT_MAX = 1e12;

export function assertCurrency(code: string): string {
  if (CURRENCY_DECIMALS[code] === undefined) {
    throw fail('invalid_currency', `Unknown ISO 4217 currency code; use one the service supports.`, {}, 422);
  }
  return code;
}

export function decimalsOf(currency: string): number {
  return CURRENCY_DECIMALS[currency] ?? 2;
}

/**
 * Whole units → integer minor units, or null when the amount breaks the
 * currency's rules. Decimals are counted on the shortest decimal text of the
 * number, so 19.99 has two and 0.1 + 0.2 (0.30000000000000004) has seventeen.
 */
export function toMinorUnits(amount: number, currency: string): number | null {
  if (!Number.isFinite(amount) || amount <= 0 || amount > AMOUNT_MAX) return null;
  const decimals = decimalsOf(currency);
  const text = String(amount);
  if (/e/i.test(text)) return null; // 1e-7 and the like: more decimals than any currency
  const fraction = text.split('.')[1] ?? '';
  if (fraction.length > decimals) return null;
  return Math.round(amount * 10 ** decimals);
}

export function assertAmount(amount: number, currency: string, field: string): number {
  const minor = toMinorUnits(amount, currency);
  if (minor === null) {
    const decimals = decimalsOf(currency);
    throw fail(
      'invalid_amount',
      `${field} must be a positive amount in whole units of ${currency} with at most ${decimals} decimal${decimals === 1 ? '' : 's'}.`,
    );
  }
  return minor;
}

export function fromMinorUnits(minor: number | null, currency: string): number | null {
  if (minor === null) return null;
  const decimals = decimalsOf(currency);
  return Number((minor / 10 ** decimals).toFixed(decimals));
}
