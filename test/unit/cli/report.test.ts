// Human error messages: every field a failure adds, server text made safe,
// and a command's own hint (withHint) before the error table's.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/errors.js';
import { humanBytes } from '../../../src/contract/media.js';
import { formatReport, formatReportJson, toReport, withHint } from '../../../src/cli/report.js';
import { DANGER, EVIL, SAFE } from './output/helpers.js';

const api = (status: number, body: Record<string, unknown>) => new ApiError({ status, body, method: 'GET', path: '/x' });
const human = (err: unknown) => formatReport(toReport(err));

describe('error lines for a person', () => {
  it('a list stopped by a failure prints its resume cursor once, on the `next cursor:` line, cleaned (#25)', () => {
    const cursor = 'c_abc\x1b[31m\r\nInjected';
    const text = formatReport({ ...toReport(api(503, { error: 'x', message: 'down' })), nextCursor: cursor });
    expect(text.split('c_abc')).toHaveLength(2);
    expect(text).toMatch(/^next cursor: c_abc Injected$/m);
    expect(text).not.toMatch(/\x1b|^Injected/m);
  });

  it('error lines strip the code, the message and every added field', () => {
    const err = new ApiError({
      status: 502,
      method: 'GET',
      path: '/x',
      body: {
        error: `provider_error${EVIL}`,
        message: EVIL,
        provider: EVIL,
        platformError: { code: 1, error_user_msg: EVIL },
        issues: [{ in: 'body', path: EVIL, message: EVIL }],
      },
    });
    const text = formatReport(toReport(err));
    expect(text).not.toMatch(DANGER);
    expect(text).toContain(`error: provider_error${SAFE} (502): ${SAFE}`);
    expect(text).toContain(`error_user_msg=${SAFE}`);
    const json = formatReportJson(toReport(err));
    expect(json).not.toMatch(DANGER);
    expect(JSON.parse(json).error.code).toBe(`provider_error${EVIL}`);
  });

  it('show every added field of the spec', () => {
    expect(human(api(409, { error: 'revision_mismatch', message: 'Somebody wrote first.', currentRevision: 7 }))).toContain('  current revision: 7');
    expect(human(api(409, { error: 'slug_conflict', message: 'Taken.', slug: 'spring-sale' }))).toContain('  slug taken: spring-sale');
    expect(human(api(415, { error: 'unsupported_type', message: 'No.', allowed: ['application/pdf', 'text/markdown'] }))).toContain(
      '  allowed types: application/pdf, text/markdown',
    );
    expect(human(api(413, { error: 'too_large', message: 'Too big.', sizeBytes: 31_457_280, limitBytes: 26_214_400 }))).toContain(
      '  size: 30 MiB, limit: 25 MiB',
    );
    const provider = human(
      api(502, {
        error: 'provider_error',
        message: 'The provider refused.',
        provider: 'provider_a',
        platformError: {
          code: 100,
          error_subcode: 1487390,
          type: 'OAuthException',
          error_user_title: 'Budget too low',
          error_user_msg: 'Raise it.',
          fbtrace_id: 'x',
        },
      }),
    );
    expect(provider).toContain('  provider: provider_a');
    expect(provider).toContain(
      '  provider said: code=100, error_subcode=1487390, type=OAuthException, error_user_title=Budget too low, error_user_msg=Raise it.',
    );
    const paywall = human(api(402, { error: 'organization_unentitled', message: 'No subscription.', paywallUrl: 'https://console.example/billing' }));
    expect(paywall.match(/https:\/\/console\.example\/billing/g)).toHaveLength(1); // in the hint, not twice
    // A field the service adds later is still shown.
    expect(human(api(422, { error: 'invalid_amount', message: 'No.', maxDecimals: 2 }))).toContain('  maxDecimals: 2');
  });

  it('lists the first ten issues and says how many more', () => {
    const issues = Array.from({ length: 13 }, (_, i) => ({ in: 'body', path: `/lineItems/${i}/budget`, message: 'Expected number' }));
    const text = human(api(400, { error: 'invalid_request', message: 'Bad body.', issues }));
    expect(text).toContain('  body /lineItems/0/budget: Expected number');
    expect(text).toContain('  body /lineItems/9/budget: Expected number');
    expect(text).not.toContain('/lineItems/10/');
    expect(text).toContain('  … and 3 more (see --output json)');
    expect(JSON.parse(formatReportJson(toReport(api(400, { error: 'invalid_request', message: 'x', issues })))).error.issues).toHaveLength(13);
  });

  it('sizes read as people count them', () => {
    expect(humanBytes(512)).toBe('512 B');
    expect(humanBytes(1536)).toBe('1.5 KiB');
    expect(humanBytes(26_214_400)).toBe('25 MiB');
  });
});

describe('withHint: a command adds its own hint', () => {
  const live = () => api(501, { error: 'live_read_unsupported', message: 'Not live.', provider: 'provider_a' });
  const hint = (r: { code: string }) => (r.code === 'live_read_unsupported' ? 'run `adops observe campaigns list --advertiser acc_1` instead' : undefined);

  it('comes first, before the error table hint, in text and JSON', () => {
    const err = withHint(live(), hint);
    const text = human(err);
    expect(text).toMatch(/hint: run `adops observe campaigns list --advertiser acc_1` instead\nhint: Read the stored copy/);
    const json = JSON.parse(formatReportJson(toReport(err))).error;
    expect(json.hint).toMatch(/^run `adops observe/);
    expect(json.hints).toHaveLength(2);
  });

  it('a function may decline: the report is unchanged', () => {
    const other = withHint(api(404, { error: 'not_found', message: 'Gone.' }), hint);
    expect(toReport(other)).toEqual(toReport(api(404, { error: 'not_found', message: 'Gone.' })));
  });

  it('wraps what is not an object', () => {
    expect(human(withHint('boom', 'try again'))).toContain('hint: try again');
  });
});
