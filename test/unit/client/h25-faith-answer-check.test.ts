// The one check of success answers (client/answer-check.ts): what a step reads of an answer (its view,
// src/contract/answer-views.ts) is checked against the contract, and a step refuses what it cannot act on.
import { describe, expect, it } from 'vitest';
import { ASSET_STATE_WORDS, checkAnswer, DOCUMENT_STATE_WORDS, MUTATION_STATE_WORDS, UnexpectedAnswerError } from '../../../src/client/answer-check.js';
import { ApiClient } from '../../../src/client/http.js';
import { MUTATION_ACCEPTORS, waitFor } from '../../../src/client/waiter.js';
import { OutcomeUnknownError, startMutation } from '../../../src/flows/mutation-start.js';
import { HttpStubs, json } from '../../helpers/http-stub.js';
import { ASSET_STATES } from '../../../src/contract/schemas/assets.js';
import { DOCUMENT_STATES } from '../../../src/contract/schemas/context/documents.js';
import { MUTATION_STATES } from '../../../src/contract/schemas/mutations.js';

describe('the words are the contract', () => {
  it('state words equal the schemas’ enums', () => {
    expect([...MUTATION_STATE_WORDS]).toEqual([...MUTATION_STATES]);
    expect([...ASSET_STATE_WORDS]).toEqual([...ASSET_STATES]);
    expect([...DOCUMENT_STATE_WORDS]).toEqual([...DOCUMENT_STATES]);
  });
});

describe('checkAnswer', () => {
  it('passes a body carrying what the step reads (more fields are fine)', async () => {
    const body = { id: 'mut_1', state: 'pending', extra: 1 };
    expect(await checkAnswer('mutationPolled', body)).toBe(body);
  });

  it.each([
    ['no id', {}, /id: missing/],
    ['an empty id', { id: ' ' }, /id: blank/],
    ['a numeric id', { id: 7 }, /id: must be a string/],
    ['null', null, /the answer: must be an object/],
    ['a list', [{ id: 'mut_1' }], /the body is a list/],
    ['no body', undefined, /the body is empty/],
  ])('createMutation with %s: unexpected_answer naming the operation and the field', async (_what, body, problem) => {
    const err = await checkAnswer('mutationStarted', body, { status: 201 }).catch((e: unknown) => e);
    if (!(err instanceof UnexpectedAnswerError)) throw new Error(`not an unexpected answer: ${String(err)}`);
    const e = err;
    expect(e.code).toBe('unexpected_answer');
    expect(e.status).toBe(201);
    expect(e.message).toMatch(/^unexpected answer to POST \/mutations: /);
    expect(e.message).toMatch(problem);
  });

  it('a state outside the contract is named without echoing it', async () => {
    await expect(checkAnswer('mutationPolled', { id: 'm', state: '\u001b[2Jdone' })).rejects.toThrow(/state: not one of pending, running, succeeded, failed/);
    await expect(checkAnswer('mutationPolled', { id: 'm', state: '\u001b[2Jdone' })).rejects.not.toThrow(/\u001b/);
  });

  it('an upload reservation needs an id and an http(s) upload URL', async () => {
    await expect(checkAnswer('assetReserved', { id: 'ast_1' })).rejects.toThrow(/uploadUrl: missing/);
    await expect(checkAnswer('assetReserved', { id: 'ast_1', uploadUrl: 'file:///etc/passwd' })).rejects.toThrow(/uploadUrl: not an http\(s\) URL/);
    await expect(checkAnswer('documentReserved', { documentId: 'doc_1', uploadUrl: 'nope' })).rejects.toThrow(/uploadUrl: not a URL/);
    expect((await checkAnswer('assetReserved', { id: 'ast_1', uploadUrl: 'https://s.example/u?t=1' })).id).toBe('ast_1');
  });

  it('a field read only when present is checked when it is: uploadExpiresAt', async () => {
    expect((await checkAnswer('assetReserved', { id: 'ast_1', uploadUrl: 'https://s.example/u' })).id).toBe('ast_1');
    await expect(checkAnswer('assetReserved', { id: 'ast_1', uploadUrl: 'https://s.example/u', uploadExpiresAt: 'soon' })).rejects.toThrow(
      /uploadExpiresAt: must be a whole number/,
    );
  });

  it('a revision must be a whole number from 1', async () => {
    for (const revision of [undefined, 0, 1.5, '3']) await expect(checkAnswer('brandUpdated', { revision })).rejects.toBeInstanceOf(UnexpectedAnswerError);
    expect((await checkAnswer('brandUpdated', { revision: 3 })).revision).toBe(3);
  });

  it('what a step does not read is not looked at: a poll with a garbled `error` still decides on its state', async () => {
    expect((await checkAnswer('mutationPolled', { id: 'm', state: 'succeeded', error: 12, changes: 'x' })).state).toBe('succeeded');
  });
});

describe('the waiter with view: mutationPolled', () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, sleep: async (ms: number) => void (t += ms) };
  };
  const wait = (answers: unknown[]) => {
    let i = 0;
    return waitFor(async () => answers[Math.min(i++, answers.length - 1)], {
      acceptors: MUTATION_ACCEPTORS,
      view: 'mutationPolled',
      timeoutMs: 5000,
      intervalMs: 1000,
      ...clock(),
    });
  };

  it('pending, running, succeeded: success', async () => {
    const r = await wait([
      { id: 'm', state: 'pending' },
      { id: 'm', state: 'running' },
      { id: 'm', state: 'succeeded' },
    ]);
    expect(r.outcome).toBe('success');
  });

  it.each([
    ['no state field', { id: 'm', status: 'succeeded' }],
    ['an unknown state', { id: 'm', state: 'done' }],
    ['a list', [{ id: 'm', state: 'succeeded' }]],
    ['a string', 'succeeded'],
  ])('%s: UnexpectedAnswerError, not success and not "still running"', async (_what, answer) => {
    await expect(wait([{ id: 'm', state: 'pending' }, answer])).rejects.toBeInstanceOf(UnexpectedAnswerError);
  });

  it('running beside a status that says succeeded: still running (the contract reads `state`)', async () => {
    expect((await wait([{ id: 'm', state: 'running', status: 'succeeded' }])).outcome).toBe('timeout');
  });
});

describe('the start flow on a 2xx without a mutation id (HttpStubs)', () => {
  const body = { advertiserId: 'acc_1', action: 'pause', target: { type: 'campaign', id: '1' } };
  const client = (http: HttpStubs) => new ApiClient({ baseUrl: 'https://api.test', apiKey: 'acr_test_full_0001', userAgent: 'x', transport: http });
  const noSleep = { sleep: async () => {}, lookupPages: 0 };

  it('201 {} then the real answer on the resend with the same key: the change, made once', async () => {
    const http = new HttpStubs().on('POST', '/mutations', json(201, {})).on('POST', '/mutations', json(200, { id: 'mut_9', state: 'pending' }));
    const r = await startMutation(client(http), body, { idempotencyKey: 'k-1', ...noSleep });
    expect(r).toMatchObject({ mutation: { id: 'mut_9' }, idempotencyKey: 'k-1', recovered: 'resent' });
    expect(http.requests.map((q) => q.headers['idempotency-key'])).toEqual(['k-1', 'k-1']);
    http.verify();
  });

  it('every answer 201 {}: OutcomeUnknownError with the key (the command exits 10)', async () => {
    const http = new HttpStubs();
    for (let i = 0; i < 4; i++) http.on('POST', '/mutations', json(201, {}));
    const err = await startMutation(client(http), body, { idempotencyKey: 'k-2', ...noSleep }).catch((e: unknown) => e);
    if (!(err instanceof OutcomeUnknownError)) throw new Error(`not an outcome unknown: ${String(err)}`);
    expect(err.idempotencyKey).toBe('k-2');
    expect(err.message).toMatch(/could not tell whether the change started: unexpected answer to POST \/mutations: the body is empty|id: missing/);
    http.verify();
  });
});
