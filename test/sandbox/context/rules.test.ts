// The pure rules under the Context API: slugs, amounts, document content
// checks and spend ceilings (fast, no HTTP; the HTTP tests cover the wiring).
import { describe, expect, it } from 'vitest';
import { bytesMatchDocumentType } from '../../../src/sandbox/models/context/document-types.js';
import { spendCeiling } from '../../../src/sandbox/models/context/line-item-checks.js';
import { fromMinorUnits, toMinorUnits } from '../../../src/sandbox/models/context/money.js';
import { isSlug } from '../../../src/sandbox/models/context/slug.js';

describe('slug rule', () => {
  it('accepts lowercase words joined by single hyphens, 1–64 characters', () => {
    for (const ok of ['a', '0', 'spring-sale-2026', 'a'.repeat(64), 'x-1-y']) expect(isSlug(ok), ok).toBe(true);
    for (const bad of ['', 'A', 'a_b', 'a--b', '-a', 'a-', 'a.b', 'a/b', 'é', 'a'.repeat(65), ' a']) expect(isSlug(bad), bad).toBe(false);
  });
});

describe('amounts in whole units', () => {
  it('converts to minor units by the currency’s decimals', () => {
    expect(toMinorUnits(19.99, 'USD')).toBe(1999);
    expect(toMinorUnits(1000, 'JPY')).toBe(1000);
    expect(toMinorUnits(1.234, 'KWD')).toBe(1234);
    expect(toMinorUnits(0.29, 'EUR')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(fromMinorUnits(1999, 'USD')).toBe(19.99);
    expect(fromMinorUnits(1234, 'BHD')).toBe(1.234);
    expect(fromMinorUnits(null, 'USD')).toBeNull();
  });

  it('refuses non-positive, over-precise, non-finite and absurd amounts', () => {
    for (const [amount, currency] of [
      [0, 'USD'],
      [-1, 'USD'],
      [1.001, 'USD'],
      [1.5, 'JPY'],
      [Number.NaN, 'USD'],
      [Number.POSITIVE_INFINITY, 'USD'],
      [1e-9, 'USD'],
      [2e12, 'USD'],
    ] as const) {
      expect(toMinorUnits(amount, currency), `${amount} ${currency}`).toBeNull();
    }
  });
});

describe('document content', () => {
  it('knows PDF, DOCX (ZIP) and UTF-8 text by their bytes', () => {
    const pdf = Buffer.from('%PDF-1.4\n');
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]);
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(bytesMatchDocumentType('application/pdf', pdf, pdf.length)).toBe(true);
    expect(bytesMatchDocumentType('application/pdf', zip, zip.length)).toBe(false);
    expect(bytesMatchDocumentType(docx, zip, zip.length)).toBe(true);
    expect(bytesMatchDocumentType(docx, pdf, pdf.length)).toBe(false);
    expect(bytesMatchDocumentType('text/plain', Buffer.from('héllo'), 6)).toBe(true);
    expect(bytesMatchDocumentType('text/csv', Buffer.from([0x61, 0x00, 0x62]), 3)).toBe(false);
    // A multi-byte character cut at the end of the head is still text.
    const cut = Buffer.from('abc€').subarray(0, 5);
    expect(bytesMatchDocumentType('text/markdown', cut, 1000)).toBe(true);
    expect(bytesMatchDocumentType('text/plain', Buffer.alloc(0), 0)).toBe(false);
  });
});

describe('spend ceiling of a line item', () => {
  it('is a lifetime budget, or a daily budget times the days of the flight (both ends included)', () => {
    expect(spendCeiling({ budget_minor: 500, budget_type: 'lifetime', start_date: null, end_date: null })).toBe(500);
    expect(spendCeiling({ budget_minor: 100, budget_type: 'daily', start_date: '2026-10-01', end_date: '2026-10-31' })).toBe(3100);
    expect(spendCeiling({ budget_minor: 100, budget_type: 'daily', start_date: '2026-03-28', end_date: '2026-03-30' })).toBe(300); // across a DST change elsewhere
    expect(spendCeiling({ budget_minor: 100, budget_type: 'daily', start_date: null, end_date: '2026-10-31' })).toBeNull();
    expect(spendCeiling({ budget_minor: null, budget_type: 'daily', start_date: null, end_date: null })).toBeNull();
  });
});
