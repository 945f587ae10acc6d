// The one check of success answers (client/answer-check.ts): its rules agree
// with the contract's response schemas (each field it requires is a required
// field of that type or enum there), and it refuses what a step cannot act on.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ANSWER_FIELDS,
  ASSET_STATE_WORDS,
  checkAnswer,
  DOCUMENT_STATE_WORDS,
  MUTATION_STATE_WORDS,
  UnexpectedAnswerError,
  type CheckedOperation,
} from '../../../src/client/answer-check.js';
import { ApiClient } from '../../../src/client/http.js';
import { MUTATION_ACCEPTORS, waitFor } from '../../../src/client/waiter.js';
import { OutcomeUnknownError, startMutation } from '../../../src/flows/mutation-start.js';
import { HttpStubs, json } from '../../helpers/http-stub.js';
import { OPERATION_SCHEMAS } from '../../../src/contract/operation-schemas.js';
import { ASSET_STATES } from '../../../src/contract/schemas/assets.js';
import { DOCUMENT_STATES } from '../../../src/contract/schemas/context/documents.js';
import { MUTATION_STATES } from '../../../src/contract/schemas/mutations.js';

type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string | string[];
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, JsonSchema>;
};

/** The response's object schema, its top-level $ref followed. */
function objectSchema(id: CheckedOperation): JsonSchema {
  const doc = z.toJSONSchema(OPERATION_SCHEMAS[id].response, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return doc.$ref ? doc.$defs![doc.$ref.replace('#/$defs/', '')]! : doc;
}

describe('the rules are the contract', () => {
  it('state words equal the schemas’ enums', () => {
    expect([...MUTATION_STATE_WORDS]).toEqual([...MUTATION_STATES]);
    expect([...ASSET_STATE_WORDS]).toEqual([...ASSET_STATES]);
    expect([...DOCUMENT_STATE_WORDS]).toEqual([...DOCUMENT_STATES]);
  });

  for (const id of Object.keys(ANSWER_FIELDS) as CheckedOperation[]) {
    it(`${id}: every field checked is required by its response schema, of that type`, () => {
      const schema = objectSchema(id);
      for (const [field, rule] of Object.entries(ANSWER_FIELDS[id])) {
        expect(schema.required, `${id}.${field}`).toContain(field);
        const prop = schema.properties![field]!;
        if (rule === 'revision') expect(prop.type).toBe('integer');
        else if (rule === 'flag') expect(prop.type).toBe('boolean');
        else if (Array.isArray(rule)) expect(prop.enum).toEqual([...rule]);
        else expect(prop.type).toBe('string');
      }
    });
  }
});

describe('checkAnswer', () => {
  it('passes a body carrying the fields (more fields are fine)', () => {
    const body = { id: 'mut_1', state: 'pending', extra: 1 };
    expect(checkAnswer('getMutation', body)).toBe(body);
  });

  it.each([
    ['no id', {}, /id: missing/],
    ['an empty id', { id: ' ' }, /id: not accepted/],
    ['a numeric id', { id: 7 }, /id: a number/],
    ['null', null, /the body is not an object \(null\)/],
    ['a list', [{ id: 'mut_1' }], /the body is a list/],
    ['no body', undefined, /the body is empty/],
  ])('createMutation with %s: unexpected_answer naming the operation and the field', (_what, body, problem) => {
    let err: unknown;
    try {
      checkAnswer('createMutation', body, { status: 201 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    const e = err as UnexpectedAnswerError;
    expect(e.code).toBe('unexpected_answer');
    expect(e.status).toBe(201);
    expect(e.message).toMatch(/^unexpected answer to POST \/mutations: /);
    expect(e.message).toMatch(problem);
  });

  it('a state outside the contract is named without echoing it', () => {
    expect(() => checkAnswer('getMutation', { id: 'm', state: '\u001b[2Jdone' })).toThrow(/state: not one of pending, running, succeeded, failed/);
    expect(() => checkAnswer('getMutation', { id: 'm', state: '\u001b[2Jdone' })).not.toThrow(/\u001b/);
  });

  it('an upload reservation needs an id and an http(s) upload URL', () => {
    expect(() => checkAnswer('reserveAssetUpload', { id: 'ast_1' })).toThrow(/uploadUrl: missing/);
    expect(() => checkAnswer('reserveAssetUpload', { id: 'ast_1', uploadUrl: 'file:///etc/passwd' })).toThrow(/uploadUrl: not an http\(s\) URL/);
    expect(() => checkAnswer('reserveDocument', { documentId: 'doc_1', uploadUrl: 'nope' })).toThrow(/uploadUrl: not a URL/);
    expect(checkAnswer('reserveAssetUpload', { id: 'ast_1', uploadUrl: 'https://s.example/u?t=1' }).id).toBe('ast_1');
  });

  it('a revision must be a whole number from 1', () => {
    for (const revision of [undefined, 0, 1.5, '3']) expect(() => checkAnswer('updateBrand', { revision })).toThrow(UnexpectedAnswerError);
    expect(checkAnswer('updateBrand', { revision: 3 }).revision).toBe(3);
  });

  it('only the fields a step asks for', () => {
    expect(() => checkAnswer('getMutation', { id: 'm' }, { fields: ['id'] })).not.toThrow();
  });
});

describe('the waiter with answer: getMutation', () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, sleep: async (ms: number) => void (t += ms) };
  };
  const wait = (answers: unknown[]) => {
    let i = 0;
    return waitFor(async () => answers[Math.min(i++, answers.length - 1)], {
      acceptors: MUTATION_ACCEPTORS,
      answer: 'getMutation',
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
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).idempotencyKey).toBe('k-2');
    expect((err as Error).message).toMatch(/could not tell whether the change started: unexpected answer to POST \/mutations: id: missing/);
    http.verify();
  });
});
