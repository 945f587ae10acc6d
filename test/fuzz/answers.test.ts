// The fuzzer's own ground: every answer the stand-in calls valid is valid by
// the contract's zod schemas (the sandbox's own), so a verdict the judge
// refuses rests on the mutation it names, never on a sampler's slip; and every
// mutation it calls breaking does break the page or body it struck.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPERATION_SCHEMAS } from '../../src/contract/operation-schemas.js';
import { OPERATIONS } from '../../src/contract/operations.js';
import { fitRequest, responseSchema, sample, type AnswerContext } from './answers.js';
import { mutateObject } from './mutations.js';

const context = (g: fc.GeneratorValue, query: Record<string, string> = {}): AnswerContext => ({
  g,
  pool: new Map(),
  query,
  params: {},
  body: undefined,
  origin: 'http://127.0.0.1:9',
  today: '2026-11-15',
});

describe('the stand-in’s samples', () => {
  for (const op of OPERATIONS) {
    const schema = responseSchema(op.id);
    if (!schema) continue;
    it(`${op.id}: every sample parses with the contract's schema`, () => {
      fc.assert(
        fc.property(fc.gen(), (g) => {
          const query = op.id === 'listInsights' ? { since: '2026-11-01', until: '2026-11-10', ids: 'a,b' } : { ids: 'a,b' };
          const value = fitRequest(context(g, query), op.id, sample(context(g, query), schema));
          const parsed = OPERATION_SCHEMAS[op.id].response.safeParse(value);
          if (!parsed.success) throw new Error(`${JSON.stringify(value).slice(0, 400)}\n${parsed.error.message.slice(0, 600)}`);
        }),
        { numRuns: 12 },
      );
    });
  }

  it('each string pattern draws its own values in one run (an id tail 1-8 characters, an upload token 12)', () => {
    // fc.gen() memoized stringMatching's arbitrary by its arguments, and two RegExps compare equal there: the
    // pattern drawn first served both (ids of 12 characters after an upload URL).
    const both = { type: 'object', required: ['uploadUrl', 'id'], properties: { uploadUrl: { type: 'string' }, id: { type: 'string' } } };
    const tails = new Set<number>();
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const ctx = context(g);
        const value = sample(ctx, both);
        expect(value).toMatchObject({ uploadUrl: expect.stringMatching(/\/upload\/[a-z0-9]{12}$/), id: expect.stringMatching(/^id_[a-z0-9]{1,8}$/) });
        tails.add(JSON.stringify(value).length); // the id's length: the only part of the text whose length varies
      }),
      { numRuns: 40, seed: 7 },
    );
    expect(tails.size).toBeGreaterThan(1);
  });

  it('a wrong type or a removed field of a live campaign row (every field typed and required) breaks the page', () => {
    fc.assert(
      fc.property(fc.gen(), (g) => {
        const value = fitRequest(context(g), 'listLiveCampaigns', sample(context(g), responseSchema('listLiveCampaigns')!));
        const m = mutateObject(g, value);
        if (!/^data\[\]\.[a-zA-Z]+$/.test(m.at) || (m.kind !== 'wrongType' && m.kind !== 'remove')) return;
        expect(OPERATION_SCHEMAS.listLiveCampaigns.response.safeParse(value).success, `${m.kind} at ${m.at}`).toBe(false);
      }),
      { numRuns: 200, endOnFailure: true },
    );
  });
});
