// How a value reads in a table or the key/value view (never in JSON, NDJSON or
// CSV, which keep raw values): times as local dates, numbers grouped and
// right-aligned, money with its currency, lists shortened. Every text passes
// through cellText, so server text never drives the terminal.
// Intl formatters are made on first use, never at load: building one starts
// ICU (~13 ms, issue #16), and writers.ts loads this module (through table.ts)
// only when it draws a table.
import { currencyDecimals } from '../../contract/currency.js';
import { cellText } from './sanitize.js';
import { MONEY_KEYS } from './money.js';

export { MONEY_KEYS };

export interface ValueStyle {
  /** IANA zone for times; default the machine's local zone. */
  timeZone?: string | undefined;
}

export interface Cell {
  text: string;
  /** Numbers (and money) align right so digits line up. */
  right: boolean;
}

type Row = Record<string, unknown>;

// Time fields by name: createdAt, updatedTime, uploadExpiresAt, startTime, checkedAt...
const TIME_KEY = /(At|Time)$/;
// Epoch ms from 1973 on: smaller numbers in a *At field are not times we can read;
// beyond ±8.64e15 a Date is invalid (and formatting it would throw).
const MIN_EPOCH_MS = 1e11;
const MAX_EPOCH_MS = 8.64e15;

const timeFormats = new Map<string, Intl.DateTimeFormat>();
function timeFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = timeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    timeFormats.set(key, f);
  }
  return f;
}

/** `2026-11-23 19:35` in the local zone (or style.timeZone). */
export function formatTime(ms: number, style: ValueStyle = {}): string {
  const parts = Object.fromEntries(
    timeFormat(style.timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

let grouped: Intl.NumberFormat | undefined;
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  grouped ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
  return grouped.format(n);
}

const moneyFormats = new Map<string, Intl.NumberFormat>();
/** `1,250.00 EUR`: the currency's own decimals (JPY none); an unknown code gets two. */
export function formatMoney(n: number, currency: string): string {
  let f = moneyFormats.get(currency);
  if (!f) {
    const digits = currencyDecimals(currency);
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: Math.max(digits, 2) });
    moneyFormats.set(currency, f);
  }
  return `${f.format(n)} ${currency}`;
}

const lastKey = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/** The value at `key` (a column or a flattened path) of `row`, as a person reads it. */
export function displayCell(value: unknown, key: string, row: Row, style: ValueStyle = {}): Cell {
  if (value === null || value === undefined) return { text: '', right: false };
  const name = lastKey(key);
  if (typeof value === 'number') {
    if (TIME_KEY.test(name) && value >= MIN_EPOCH_MS && value <= MAX_EPOCH_MS) return { text: formatTime(value, style), right: false };
    const currency = typeof row.currency === 'string' && /^[A-Z]{3}$/.test(row.currency) ? row.currency : undefined;
    if (MONEY_KEYS.has(name) && currency) return { text: formatMoney(value, currency), right: true };
    return { text: formatNumber(value), right: true };
  }
  if (typeof value === 'string') {
    // ISO timestamps (startTime '2026-03-01T00:00:00+0000'); plain dates stay as written.
    if (TIME_KEY.test(name) && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
      const ms = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
      if (!Number.isNaN(ms)) return { text: formatTime(ms, style), right: false };
    }
    return { text: cellText(value), right: false };
  }
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return { text: cellText(value.map((v) => String(v)).join(', ')), right: false };
    return { text: `${value.length} item${value.length === 1 ? '' : 's'}`, right: false };
  }
  return { text: cellText(value), right: false };
}
