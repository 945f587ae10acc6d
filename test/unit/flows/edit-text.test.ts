// The editor's text for a row: written, read back, and the changes it makes.
import { describe, expect, it } from 'vitest';
import type { FieldInput } from '../../../src/contract/operation-inputs.js';
import { EditTextError, editedChanges, parseEditText, renderEditText, type EditLayout } from '../../../src/flows/edit-text.js';

const f = (name: string, type: FieldInput['type'], extra: Partial<FieldInput> = {}): FieldInput => ({ name, type, required: false, ...extra });
const layout: EditLayout = {
  fields: [
    f('name', 'string'),
    f('description', 'string'),
    f('budget', 'number', { nullable: true }),
    f('goals', 'array', { items: 'string' }),
    f('voice', 'string', { nullable: true }),
    f('body', 'string'),
  ],
  blocks: ['voice', 'body'],
};
const row = { name: 'Acme', description: '  padded', budget: 50, goals: ['grow', 'null'], voice: 'Calm.\n\n# Rules\n- short\n', body: '', revision: 3 };

describe('edit text', () => {
  it('reads back what it wrote: no changes', () => {
    const text = renderEditText(row, layout, ['brand acme']);
    expect(text).toContain('# brand acme');
    expect(text).toContain('name: Acme\ndescription: "  padded"\nbudget: 50\ngoals:\n  - grow\n  - "null"\n');
    expect(text).toContain('=== voice ===\nCalm.\n\n# Rules\n- short\n');
    expect(editedChanges(row, parseEditText(text, layout), layout)).toEqual({});
  });

  it('types come from the fields: numbers, null, lists, text that looks like a number', () => {
    const text = 'name: 2026\nbudget: null\ngoals:\n  - a\n  -  b \n=== voice ===\n\n=== body ===\nNew body\n\n';
    expect(parseEditText(text, layout)).toEqual({ name: '2026', budget: null, goals: ['a', 'b'], voice: null, body: 'New body' });
    expect(editedChanges(row, parseEditText(text, layout), layout)).toEqual({ name: '2026', budget: null, goals: ['a', 'b'], voice: null, body: 'New body' });
  });

  it('a deleted line leaves its field alone; an empty list is []', () => {
    expect(parseEditText('goals: []\n', layout)).toEqual({ goals: [] });
  });

  it('an empty block of a field that cannot be null is empty text', () => {
    expect(parseEditText('=== body ===\n', layout)).toEqual({ body: '' });
  });

  it('refuses unknown and repeated fields, bad numbers and bad quotes, naming the line', () => {
    expect(() => parseEditText('nme: x\n', layout)).toThrow(/line 1: unknown field "nme"/);
    expect(() => parseEditText('name: a\nname: b\n', layout)).toThrow(/line 2: name is given twice/);
    expect(() => parseEditText('budget: lots\n', layout)).toThrow(EditTextError);
    expect(() => parseEditText('name: "open\n', layout)).toThrow(/not a valid "quoted" JSON string/);
    expect(() => parseEditText('just text\n', layout)).toThrow(/expected "field: value"/);
  });

  it('CRLF line ends read like LF', () => {
    expect(parseEditText('name: A\r\n=== voice ===\r\nx\r\n', layout)).toEqual({ name: 'A', voice: 'x' });
  });
});
