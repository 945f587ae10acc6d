import { describe, expect, it } from 'vitest';
import { fieldsToBody, fieldsToQuery, typedValue } from '../../../src/commands/_shared/fields.js';
import { UsageError } from '../../../src/cli/errors.js';

describe('-f / -F fields', () => {
  it('-f sends strings (ids that look like numbers stay strings) and nests on dots', () => {
    expect(fieldsToBody([], ['target.id=123', 'target.type=campaign', 'name=a=b'])).toEqual({ target: { id: '123', type: 'campaign' }, name: 'a=b' });
  });
  it('-F sends JSON values, and text that is not JSON as a string', () => {
    expect(fieldsToBody(['budget.amount=50', 'on=true', 'x=null', 'tags=["a"]', 'word=hello'], [])).toEqual({ budget: { amount: 50 }, on: true, x: null, tags: ['a'], word: 'hello' });
    expect(typedValue('{broken')).toBe('{broken');
  });
  it('query fields are strings; a field without = is a usage error', () => {
    expect(fieldsToQuery(['limit=5', 'q=a=b'])).toEqual({ limit: '5', q: 'a=b' });
    expect(() => fieldsToBody([], ['oops'])).toThrow(UsageError);
  });
});
