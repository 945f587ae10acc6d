// The one table of where a Context noun's editable fields are stored
// (src/sandbox/models/context/stored-fields.ts): what a create and an update
// write from it. The routes' tests cover the nouns that use it over HTTP.
import { describe, expect, it } from 'vitest';
import { insertInto, storedChanges, storedOnCreate } from '../../../src/sandbox/models/context/stored-fields.js';
import type { StoredFields } from '../../../src/sandbox/models/context/stored-fields.js';
import { nextSeq } from '../../../src/sandbox/store/schema/seq-high-water.js';

type Body = { name?: string | undefined; note?: string | null | undefined; tags?: string[] | undefined };
type Row = { name: string; note_text: string | null; tags_json: string };

const FIELDS: StoredFields<Body, Row> = {
  name: { column: 'name', store: (v) => v },
  note: { column: 'note_text', store: (v) => v ?? null },
  tags: { column: 'tags_json', store: (v) => JSON.stringify(v ?? []) },
};

describe('stored fields', () => {
  it('a create writes every column, in the table’s order, an omitted field as its default', () => {
    expect(storedOnCreate(FIELDS, { name: 'n' })).toEqual({ name: 'n', note_text: null, tags_json: '[]' });
    expect(Object.keys(storedOnCreate(FIELDS, { tags: ['a'], name: 'n' }))).toEqual(['name', 'note_text', 'tags_json']);
  });

  it('an update writes only the fields the body names; null is a value (it clears), undefined is not', () => {
    expect(storedChanges(FIELDS, { tags: ['a', 'b'] })).toEqual({ tags_json: '["a","b"]' });
    expect(storedChanges(FIELDS, { note: null, name: undefined })).toEqual({ note_text: null });
    expect(storedChanges(FIELDS, {})).toEqual({});
  });

  it('an INSERT has one positional parameter per column, in the order of the values (bound as Object.values), after a seq never used before', () => {
    const seq = (t: 'context_skills' | 'context_brands') => `INSERT INTO ${t} (seq, `;
    expect(insertInto('context_skills', { a: 1, b_c: null })).toBe(`${seq('context_skills')}a, b_c) VALUES (${nextSeq('context_skills')}, ?, ?)`);
    expect(insertInto('context_skills', { b_c: null, a: 1 })).toBe(`${seq('context_skills')}b_c, a) VALUES (${nextSeq('context_skills')}, ?, ?)`);
    // The same shape again is the same text (kept, not built again), and another table is its own.
    expect(insertInto('context_skills', { a: 2, b_c: 'x' })).toBe(`${seq('context_skills')}a, b_c) VALUES (${nextSeq('context_skills')}, ?, ?)`);
    expect(insertInto('context_brands', { a: 1, b_c: null })).toBe(`${seq('context_brands')}a, b_c) VALUES (${nextSeq('context_brands')}, ?, ?)`);
  });
});
