// The upload's transition table, cell by cell: every step × every answer kind
// gives the step written here (or no step at all), so a transition that
// changes, appears or goes fails this file. The table below is written out by
// hand, not read from the source. Also the pure readings around it: how a
// PUT's status reads, when an upload URL still counts, where a resumed entry goes.
import { describe, expect, it } from 'vitest';
import {
  advance,
  putAnswerKind,
  RENEWALS,
  resumeVerdict,
  urlUsable,
  type Answer,
  type AnswerKind,
  type EntryFacts,
  type Next,
  type Step,
} from '../../../src/flows/upload-machine.js';

/** Every kind of answer; a kind added to the union and not here fails to compile (_allKinds). */
const KINDS = [
  'reserved',
  'stored',
  'already-ours',
  'incomplete',
  'url-expired',
  'url-refused',
  'reservation-gone',
  'already-unproven',
  'ready',
  'processing',
  'file-changed',
  'too-large',
  'refused',
  'sends-spent',
  'row-deleted',
  'size-mismatch',
  'timeout',
  'row-gone',
  'released',
  'discarded',
] as const satisfies readonly AnswerKind[];
const _allKinds: [Exclude<AnswerKind, (typeof KINDS)[number]>] extends [never] ? true : false = true;

/** What each step does after each answer; a kind not listed for a step is one it never gives. */
const EXPECTED: Record<Step, Partial<Record<AnswerKind, Next>>> = {
  reserve: { reserved: 'put', 'file-changed': 'discard' },
  renew: { reserved: 'put', 'file-changed': 'discard' },
  put: {
    stored: 'finalize',
    'already-ours': 'finalize',
    'already-unproven': 'renew',
    'url-expired': 'renew',
    'url-refused': 'renew',
    'reservation-gone': 'renew',
    'too-large': 'release',
    refused: 'fail',
    'file-changed': 'discard',
  },
  finalize: { ready: 'ready', processing: 'wait', incomplete: 'put', 'sends-spent': 'fail', 'row-deleted': 'fail', 'size-mismatch': 'fail' },
  wait: { ready: 'ready', 'size-mismatch': 'fail', timeout: 'fail', 'row-gone': 'fail' },
  release: { released: 'fail' },
  discard: { discarded: 'fail' },
};

/** An answer of `kind` carrying something of every sort (only its kind is read by the table). */
function answer(kind: AnswerKind): Answer {
  const carried = { kind, why: 'why', row: { id: 'ast_1' }, error: new Error('failed') };
  return carried;
}

const STEPS = ['reserve', 'renew', 'put', 'finalize', 'wait', 'release', 'discard'] as const satisfies readonly Step[];
const _allSteps: [Exclude<Step, (typeof STEPS)[number]>] extends [never] ? true : false = true;

describe('the upload transition table', () => {
  const cells = STEPS.flatMap((step) => KINDS.map((kind) => ({ step, kind, next: EXPECTED[step][kind] })));

  it.each(cells.filter((c) => c.next !== undefined))('$step × $kind → $next', ({ step, kind, next }) => {
    const moved = advance({ step, renewals: 0 }, answer(kind));
    expect(typeof moved === 'string' ? moved : moved.step).toBe(next);
  });

  it('has no step after an answer its step never gives', () => {
    const never = cells.filter((c) => c.next === undefined);
    expect(never.length).toBeGreaterThan(100);
    for (const { step, kind } of never) expect(() => advance({ step, renewals: 0 }, answer(kind)), `${step} × ${kind}`).toThrow(/no step after/);
  });

  it(`renews at most ${RENEWALS} times, then gives up; other moves keep the count`, () => {
    const expired = answer('url-expired');
    expect(advance({ step: 'put', renewals: 0 }, expired)).toEqual({ step: 'renew', renewals: 1 });
    expect(advance({ step: 'put', renewals: RENEWALS - 1 }, expired)).toEqual({ step: 'renew', renewals: RENEWALS });
    expect(advance({ step: 'put', renewals: RENEWALS }, expired)).toBe('gave-up');
    expect(advance({ step: 'put', renewals: RENEWALS }, answer('already-unproven'))).toBe('gave-up');
    expect(advance({ step: 'renew', renewals: RENEWALS }, answer('reserved'))).toEqual({ step: 'put', renewals: RENEWALS });
    expect(advance({ step: 'finalize', renewals: 1 }, answer('incomplete'))).toEqual({ step: 'put', renewals: 1 });
  });
});

describe("a PUT's answer as a kind", () => {
  it.each([
    [200, undefined, 'stored'],
    [201, 'whatever', 'stored'],
    [204, undefined, 'stored'],
    [409, 'upload_already_received', 'already-received'],
    [409, 'conflict', 'refused'],
    [403, 'upload_url_expired', 'url-refused'],
    [403, 'forbidden', 'refused'],
    [404, undefined, 'reservation-gone'],
    [413, 'upload_too_large', 'too-large'],
    [307, undefined, 'refused'],
    [503, 'unavailable', 'refused'],
  ] as const)('%i %s → %s', (status, code, kind) => {
    expect(putAnswerKind(status, code)).toBe(kind);
  });
});

describe('an upload URL counts while it can still start a PUT (10 s margin)', () => {
  it('judges by the expiry less the margin, and needs a URL', () => {
    const res = { uploadUrl: 'https://storage.test/u/t', uploadExpiresAt: 100_000 };
    expect(urlUsable(res, 89_999)).toBe(true);
    expect(urlUsable(res, 90_000)).toBe(false);
    expect(urlUsable({ ...res, uploadUrl: '' }, 0)).toBe(false);
    expect(urlUsable(undefined, 0)).toBe(false);
  });
});

describe('where an earlier run’s entry resumes', () => {
  const sha = 'a'.repeat(64);
  const other = 'b'.repeat(64);
  /** An entry sent with this file's bytes, its row holding them unfinalized, its URL good, made for this name and type. */
  const sent: EntryFacts = {
    entryState: 'sent',
    sentSha256: sha,
    rowState: 'uploaded',
    rowReady: false,
    serviceSha256: undefined,
    sha256: sha,
    mayResend: true,
    urlUsable: true,
  };
  const ready = { rowState: 'ready', rowReady: true } as const;
  const reserved = { entryState: 'reserved', sentSha256: undefined, rowState: 'reserved' } as const;

  it.each<[string, Partial<EntryFacts>, ReturnType<typeof resumeVerdict>]>([
    ['ready with these bytes (the service says so)', { ...ready, serviceSha256: sha, sentSha256: undefined }, 'show'],
    ['ready with these bytes (our record says so)', { ...ready }, 'show'],
    ['ready with these bytes, made under another name', { ...ready, mayResend: false }, 'show'],
    ['ready with other bytes (the service says so, whatever we recorded)', { ...ready, serviceSha256: other }, 'forget'],
    ['ready with other bytes (our record)', { ...ready, sentSha256: other }, 'forget'],
    ['these bytes landed, not finalized', {}, 'finalize'],
    ['these bytes landed, an entry of an older adops (uploaded)', { entryState: 'uploaded' }, 'finalize'],
    ['these bytes landed though the entry reads reserved (the service shows them)', { ...reserved, rowState: 'uploaded', serviceSha256: sha }, 'finalize'],
    ['these bytes landed in a reservation for another name, URL good', { mayResend: false }, 'delete'],
    ['bytes landed that are not these', { sentSha256: other }, 'delete-unproven'],
    ['bytes landed with no hash recorded (a pending entry)', { sentSha256: undefined }, 'delete-unproven'],
    ['sent, but nothing landed yet: URL good', { rowState: 'reserved' }, 'finalize'],
    ['other bytes sent, nothing landed: URL good', { rowState: 'reserved', sentSha256: other }, 'put'],
    ['other bytes sent, nothing landed: URL expired', { rowState: 'reserved', sentSha256: other, urlUsable: false }, 'delete'],
    ['reserved, URL good', { ...reserved }, 'put'],
    ['reserved, URL expired', { ...reserved, urlUsable: false }, 'delete'],
    ['reserved for another name or type', { ...reserved, mayResend: false }, 'delete'],
  ])('%s → %s', (_what, facts, verdict) => {
    expect(resumeVerdict({ ...sent, ...facts })).toBe(verdict);
  });
});
