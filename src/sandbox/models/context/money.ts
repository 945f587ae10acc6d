// Plan amounts: whole units of the plan's ISO 4217 currency (spec: "amounts are
// whole units of the plan's currency"; 50 means 50.00). Stored as integers in
// minor units so sums and comparisons are exact. An amount is refused with 422
// invalid_amount when it is not positive, has more decimals than the currency,
// or is absurdly large.
import { domainError } from '../errors.js';
import { currencyDecimals } from '../../providers/units.js';

/** ISO 4217 codes a plan may use; their decimals are the one table in providers/units.ts. */
const PLAN_CURRENCIES: ReadonlySet<string> = new Set([
  'AED',
  'ARS',
  'AUD',
  'BGN',
  'BHD',
  'BRL',
  'CAD',
  'CHF',
  'CLP',
  'CNY',
  'COP',
  'CZK',
  'DKK',
  'EGP',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'ISK',
  'JOD',
  'JPY',
  'KES',
  'KRW',
  'KWD',
  'MAD',
  'MXN',
  'MYR',
  'NGN',
  'NOK',
  'NZD',
  'OMR',
  'PEN',
  'PHP',
  'PKR',
  'PLN',
  'QAR',
  'RON',
  'RSD',
  'SAR',
  'SEK',
  'SGD',
  'THB',
  'TND',
  'TRY',
  'TWD',
  'UAH',
  'USD',
  'UYU',
  'VND',
  'ZAR',
]);

/** Largest amount accepted, in whole units: far above any real plan, below float trouble. */
export const AMOUNT_MAX = 1e12;

export function assertCurrency(code: string): string {
  if (!PLAN_CURRENCIES.has(code)) {
    throw domainError('invalid_currency', `Unknown ISO 4217 currency code; use one the service supports.`);
  }
  return code;
}

/**
 * Whole units → integer minor units, or null when the amount breaks the
 * currency's rules. Decimals are counted on the shortest decimal text of the
 * number, so 19.99 has two and 0.1 + 0.2 (0.30000000000000004) has seventeen.
 */
export function toMinorUnits(amount: number, currency: string): number | null {
  if (!Number.isFinite(amount) || amount <= 0 || amount > AMOUNT_MAX) return null;
  const decimals = currencyDecimals(currency);
  const text = String(amount);
  if (/e/i.test(text)) return null; // 1e-7 and the like: more decimals than any currency
  const fraction = text.split('.')[1] ?? '';
  if (fraction.length > decimals) return null;
  return Math.round(amount * 10 ** decimals);
}

export function assertAmount(amount: number, currency: string, field: string): number {
  const minor = toMinorUnits(amount, currency);
  if (minor === null) {
    const decimals = currencyDecimals(currency);
    throw domainError(
      'invalid_amount',
      `${field} must be a positive amount in whole units of ${currency} with at most ${decimals} decimal${decimals === 1 ? '' : 's'}.`,
    );
  }
  return minor;
}

export function fromMinorUnits(minor: number | null, currency: string): number | null {
  if (minor === null) return null;
  const decimals = currencyDecimals(currency);
  return Number((minor / 10 ** decimals).toFixed(decimals));
}
