// --fields: dotted paths, the schema's fields plus what the data carries
// (the field lists themselves: test/unit/contract/resources.test.ts).
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/cli/errors.js';
import { checkFields, checkFieldsInData, getPath, pick } from '../../../../src/cli/output/fields.js';
import { list, object } from './helpers.js';

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error('no usage error');
}

const mutation = {
  id: 'mut_1',
  advertiserId: 'acc_1',
  provider: 'provider_a',
  target: { type: 'campaign', id: '42' },
  action: 'set_budget',
  changes: { budget: { amount: 50, type: 'daily' } },
  state: 'succeeded',
  error: null,
  entity: { daily_budget: 50 },
  createdAt: 1_790_000_000_000,
  updatedAt: 1_790_000_000_000,
  startedAt: null,
  completedAt: null,
};

describe('dotted paths', () => {
  it('reads nested values and keys that hold dots', () => {
    expect(getPath(mutation, 'target.id')).toBe('42');
    expect(getPath(mutation, 'changes.budget.amount')).toBe(50);
    expect(getPath({ 'a.b': 1 }, 'a.b')).toBe(1);
    expect(getPath({ a: { 'b.c': 2 } }, 'a.b.c')).toBe(2);
    expect(getPath(mutation, 'target.nope')).toBeUndefined();
    // Only the row's own keys: nothing from Object.prototype.
    expect(getPath(mutation, 'constructor')).toBeUndefined();
    expect(getPath(mutation, 'target.toString')).toBeUndefined();
    expect(() => checkFieldsInData(['constructor'], 'mutation', [mutation])).toThrow(UsageError);
  });
  it('pick keeps the structure for JSON, in --fields order, null for a known field the row lacks', () => {
    expect(pick(mutation, ['target.id', 'changes.budget.amount', 'state', 'startedAt'])).toEqual({
      target: { id: '42' },
      changes: { budget: { amount: 50 } },
      state: 'succeeded',
      startedAt: null,
    });
    // The whole parent first: the child adds nothing.
    expect(pick(mutation, ['target', 'target.id'])).toEqual({ target: { type: 'campaign', id: '42' } });
  });
  it('a person sees dotted columns, a script reads nested JSON', async () => {
    const fields = checkFields(['target.id', 'changes.budget.amount'], 'mutation');
    const table = await list([[mutation]], { tty: true, resource: 'mutation', fields });
    expect(table).toMatch(/│ target\.id │ changes\.budget\.amount │/);
    expect(table).toMatch(/│ 42 +│ +50 │/);
    const json = JSON.parse(await list([[mutation]], { tty: false, resource: 'mutation', fields }));
    expect(json).toEqual([{ target: { id: '42' }, changes: { budget: { amount: 50 } } }]);
    const csv = await list([[mutation]], { tty: false, format: 'csv', resource: 'mutation', fields });
    expect(csv).toBe('target.id,changes.budget.amount\n42,50\n');
  });
});

describe('unknown fields', () => {
  it('are refused before sending on a strict resource (spec: Observe rows have no other fields)', () => {
    const err = usage(() => checkFields(['nmae'], 'campaign'));
    expect(err.message).toBe('unknown field for campaign: nmae');
    expect(err.hint).toMatch(/known fields: advertiserId, id, name/);
    expect(checkFields(['name,id', ' status '], 'campaign')).toEqual(['name', 'id', 'status']);
    expect(() => checkFields(['target..id'], 'mutation')).toThrow(/malformed/);
  });
  it('elsewhere wait for the data: a field the service sends is fine, one nobody knows is an error', async () => {
    expect(checkFields(['brandNew'], 'mutation')).toEqual(['brandNew']);
    expect(() => checkFieldsInData(['brandNew'], 'mutation', [{ ...mutation, brandNew: 1 }])).not.toThrow();
    expect(checkFieldsInData(['entity.daily_budget', 'error.code'], 'mutation', [mutation])).toBeUndefined();
    const err = usage(() => checkFieldsInData(['stat'], 'mutation', [mutation]));
    expect(err.message).toBe('unknown field for mutation: stat');
    expect(err.hint).toMatch(/state/);
    // The writers check before writing anything: no column of nulls, no half document.
    for (const tty of [true, false]) {
      await expect(list([[mutation]], { tty, resource: 'mutation', fields: ['stat'] })).rejects.toThrow(UsageError);
      await expect(object(mutation, { tty, resource: 'mutation', fields: ['stat'] })).rejects.toThrow(UsageError);
    }
  });
});
