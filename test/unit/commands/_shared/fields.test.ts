import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fieldsToBody, fieldsToQuery, objectBody, typedValue } from '../../../../src/commands/_shared/fields.js';
import { UsageError } from '../../../../src/cli/errors.js';
import { tempDir } from '../../../helpers/temp.js';

describe('-f / -F fields', () => {
  it('-f sends strings (ids that look like numbers stay strings) and nests on dots', () => {
    expect(fieldsToBody([], ['target.id=123', 'target.type=campaign', 'name=a=b'])).toEqual({ target: { id: '123', type: 'campaign' }, name: 'a=b' });
  });
  it('-F sends JSON values, and text that is not JSON as a string', () => {
    expect(fieldsToBody(['budget.amount=50', 'on=true', 'x=null', 'tags=["a"]', 'word="hello"'], [])).toEqual({
      budget: { amount: 50 },
      on: true,
      x: null,
      tags: ['a'],
      word: 'hello',
    });
    // Not JSON: a usage error that says how to send a string, never silently a string.
    expect(() => typedValue('{broken', 'k')).toThrow(/-F k=\{broken is not valid JSON/);
    expect(() => fieldsToBody(['word=hello'], [])).toThrow(UsageError);
  });
  it('query fields are strings; a field without = is a usage error', () => {
    expect(fieldsToQuery(['limit=5', 'q=a=b'])).toEqual({ limit: '5', q: 'a=b' });
    expect(() => fieldsToBody([], ['oops'])).toThrow(UsageError);
  });
  it('a body is --input (a JSON object) with -F then -f fields over its keys', async () => {
    const stdin = (text: string) => Readable.from([text]);
    expect(await objectBody({}, stdin(''))).toEqual({});
    expect(await objectBody({ input: '-', jsonField: ['n=1', 'a.b=2'], field: ['a.c=3'] }, stdin('{"n":0,"keep":true}'))).toEqual({
      n: 1,
      keep: true,
      a: { b: 2, c: '3' },
    });
    const file = join(tempDir('adops-fields-'), 'body.json');
    writeFileSync(file, '{"name":"x"}');
    expect(await objectBody({ input: file, field: ['name=y'] }, stdin(''))).toEqual({ name: 'y' });
    await expect(objectBody({ input: '-' }, stdin('[1]'))).rejects.toThrow('--input must hold a JSON object');
    await expect(objectBody({ input: '-' }, stdin('null'))).rejects.toThrow(UsageError);
  });
});
