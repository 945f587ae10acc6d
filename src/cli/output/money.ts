// Money fields: whole units of the row's `currency` (spec: budget, spend, bidAmount; plans and line items).
// Its own module so the writers (CSV columns) need not load the table's Intl formatting (values.ts).
export const MONEY_KEYS: ReadonlySet<string> = new Set(['budget', 'spend', 'amount', 'bidAmount']);
