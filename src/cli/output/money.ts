// Money fields: whole units of the row's `currency`, declared with the nouns (src/contract/resources.ts MONEY_FIELDS).
// Its own module so the writers (CSV columns) need not load the table's Intl formatting (values.ts).
import { MONEY_FIELDS } from '../../contract/resources.js';

export const MONEY_KEYS: ReadonlySet<string> = new Set(MONEY_FIELDS);
