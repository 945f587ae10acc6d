// Money units of the simulated providers. The service answers every amount in
// whole units of the advertiser's currency (50 means 50.00); providers store
// minor units (provider_a), whole units (provider_b, provider_d as decimal
// strings) or micros (provider_c). Conversions are exact for the currency's
// own number of decimals, so a converted amount never carries float dust.

/** ISO 4217 minor-unit exponents that differ from 2. Unknown codes use 2. */
const DECIMALS_OTHER_THAN_TWO: Record<string, number> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

export function currencyDecimals(currency: string): number {
  return DECIMALS_OTHER_THAN_TWO[currency.toUpperCase()] ?? 2;
}

/** Rounds to the currency's decimals (guards against binary float remainders). */
export function roundToCurrency(amount: number, currency: string): number {
  const factor = 10 ** currencyDecimals(currency);
  return Math.round(amount * factor) / factor;
}

/** Provider minor units (e.g. cents) → whole units; null when the currency is unknown. */
export function minorToWhole(minor: number | string | null | undefined, currency: string | null): number | null {
  if (currency === null || minor === null || minor === undefined || minor === '') return null;
  const n = Number(minor);
  if (!Number.isFinite(n)) return null;
  return n / 10 ** currencyDecimals(currency);
}

/**
 * Micros (1,000,000 per whole unit) → whole units; null when unknown. Not
 * rounded to the currency: 12,345,000 micros are 12.345, as the provider holds them.
 */
export function microsToWhole(micros: number | string | null | undefined, currency: string | null): number | null {
  if (currency === null || micros === null || micros === undefined || micros === '') return null;
  const n = Number(micros);
  return Number.isFinite(n) ? n / 1_000_000 : null;
}

/** Whole units as a number (provider_b numbers, provider_d decimal strings); null when unknown. */
export function wholeToWhole(amount: number | string | null | undefined, currency: string | null): number | null {
  if (currency === null || amount === null || amount === undefined || amount === '') return null;
  const n = Number(amount);
  return Number.isFinite(n) ? roundToCurrency(n, currency) : null;
}

export type AmountCheck = { ok: true } | { ok: false; reason: string };

/**
 * Whether a whole-unit amount can be written: finite, not negative, and with no
 * more decimals than the currency has (12.345 USD cannot be sent as cents).
 */
export function checkWholeAmount(amount: unknown, currency: string | null): AmountCheck {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return { ok: false, reason: 'The amount is not a finite number.' };
  if (amount < 0) return { ok: false, reason: 'The amount is negative.' };
  if (currency === null) return { ok: false, reason: "The advertiser's currency is not yet known, so no amount can be written." };
  const decimals = currencyDecimals(currency);
  const scaled = amount * 10 ** decimals;
  if (Math.abs(scaled - Math.round(scaled)) > 1e-6) {
    return { ok: false, reason: `The amount has more decimals than ${currency} has (${decimals}).` };
  }
  return { ok: true };
}

/** Whole units → minor units (integer). Call checkWholeAmount first. */
export function wholeToMinor(amount: number, currency: string): number {
  return Math.round(amount * 10 ** currencyDecimals(currency));
}

/** Whole units → micros (integer). */
export function wholeToMicros(amount: number): number {
  return Math.round(amount * 1_000_000);
}

/** Whole units → a decimal string with the currency's decimals ("50.00"). */
export function wholeToDecimalString(amount: number, currency: string): string {
  return amount.toFixed(currencyDecimals(currency));
}
