// A currency's minor unit, as ISO 4217 says it (JPY 0, USD 2, KWD 3): what the CLI shows money with and what a
// proposed amount is rounded to. Node's Intl holds the table; a code it does not know gets two decimals.

const decimals = new Map<string, number>();

/** Decimals of `currency`'s minor unit; two for a code Intl does not know. */
export function currencyDecimals(currency: string): number {
  let d = decimals.get(currency);
  if (d === undefined) {
    try {
      d = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      d = 2;
    }
    decimals.set(currency, d);
  }
  return d;
}
