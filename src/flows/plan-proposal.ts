// What `plans verify --fix` and `plans pacing --suggest` propose: changes in
// named fields (the rows of a change file that `mutations apply` reads), each
// with the Line Item it serves, and what was not proposed, each with its
// reason (stderr). Amounts are in whole units with at most the currency's
// decimals, as the service takes them (else 422 invalid_amount).
import { currencyDecimals } from '../contract/currency.js';
import type { NamedChange } from '../contract/mutation-actions.js';

/** Something a check found that no change is proposed for, and why. */
export interface NotProposed {
  lineItemId: string | null;
  entityType: string | null;
  entityId: string | null;
  reason: string;
}

export interface ProposedChange {
  lineItemId: string | null;
  change: NamedChange;
}

export interface Proposal {
  changes: ProposedChange[];
  notProposed: NotProposed[];
}

/** Minor units of a whole amount, when it is positive, finite and has no more decimals than the currency; else undefined. */
export function minorUnits(amount: number, currency: string): number | undefined {
  const scaled = amount * 10 ** currencyDecimals(currency);
  const minor = Math.round(scaled);
  return Number.isFinite(scaled) && minor > 0 && Math.abs(scaled - minor) < 1e-6 ? minor : undefined;
}

/** A whole amount from minor units, without float dust (1999 cents are 19.99). */
export const wholeOf = (minor: number, currency: string): number => Number((minor / 10 ** currencyDecimals(currency)).toFixed(currencyDecimals(currency)));
