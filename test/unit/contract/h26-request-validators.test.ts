// The compiled request validators (src/contract/generated/request-validators.js) are the contract's
// own schemas, current, and their verdicts read as a person's words.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemasOf } from '../../../src/contract/operation-schemas.js';
import { checkRequest } from '../../../src/contract/request-check.js';
import { requestValidatorsSource } from '../../../src/contract/request-schemas.js';

describe('request validators', () => {
  it('src/contract/generated/request-validators.js is current (regenerate: npm run gen)', () => {
    const committed = readFileSync(new URL('../../../src/contract/generated/request-validators.js', import.meta.url), 'utf8');
    expect(committed === requestValidatorsSource()).toBe(true);
  });

  it('a nullable choice: a wrong word names the choices, a wrong type names both types', async () => {
    expect(await checkRequest('addLineItem', 'body', { name: 'x', budgetType: 'weekly' })).toEqual([
      { pointer: '/budgetType', text: 'must be one of daily, lifetime' },
    ]);
    expect(await checkRequest('addLineItem', 'body', { name: 'x', budgetType: 5 })).toEqual([{ pointer: '/budgetType', text: 'must be a string or null' }]);
  });

  it('a calendar date is a real one, as the sandbox checks it', async () => {
    expect(await checkRequest('addLineItem', 'body', { name: 'x', startDate: '2026-02-30' })).toEqual([
      { pointer: '/startDate', text: 'must be a real calendar date YYYY-MM-DD' },
    ]);
    expect(await checkRequest('addLineItem', 'body', { name: 'x', startDate: '2028-02-29' })).toEqual([]);
  });

  it('strings are counted as the sandbox counts them (code points, #34): 200 emoji fit in 200, 201 do not', async () => {
    const body = (id: string) => ({ advertiserId: 'acc_1', action: 'pause', target: { type: 'campaign', id } });
    const sandbox = (id: string) => schemasOf('createMutation')!.body!.safeParse(body(id)).success;
    expect([await checkRequest('createMutation', 'body', body('😀'.repeat(200))), sandbox('😀'.repeat(200))]).toEqual([[], true]);
    expect([await checkRequest('createMutation', 'body', body('😀'.repeat(201))), sandbox('😀'.repeat(201))]).toEqual([
      [{ pointer: '/target/id', text: 'must be at most 200 characters' }],
      false,
    ]);
  });

  it('an Idempotency-Key header of invisible characters is refused by the headers schema', async () => {
    expect(await checkRequest('createMutation', 'headers', { 'idempotency-key': 'a b' })).toHaveLength(1);
    expect(await checkRequest('createMutation', 'headers', { 'idempotency-key': 'k-1' })).toEqual([]);
  });
});
