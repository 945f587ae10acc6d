// #37 (CPU per row): Journal.note builds one object per row, not two, and
// printableJson skips its replaces when a line has nothing to escape. What is
// written must not move: each line is the entry's fields in the order they
// were first given, the error masked, then the scope (service, keyFp) last;
// the kept entries never carry the scope; a line with something to escape is
// escaped as before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeJsonText } from '../../../src/client/json.js';
import { Journal } from '../../../src/state/mutation-journal.js';
import { tempDir } from '../../helpers/temp.js';

const scope = { baseUrl: 'http://127.0.0.1:1', keyFp: 'fp1' };
const key = 'acr_demo_acme_full_0001';

function linesOf(keepsRecorded: boolean): string[] {
  const path = join(tempDir('adops-journal-line-'), 'j.ndjson');
  const j = new Journal(path, scope);
  j.keepsRecorded = keepsRecorded;
  j.note({ row: 'r#1', line: 2, idempotencyKey: 'k1', firstSentAt: 5, mutationId: null, state: 'sending' });
  j.note({ row: 'r#1', line: 2, idempotencyKey: 'k1', firstSentAt: 5, mutationId: null, state: 'refused', error: `bad ${key}` });
  j.note({ row: 'r#2', line: 3, idempotencyKey: 'k2', firstSentAt: 6, mutationId: 'mut_1', state: 'pending' });
  if (keepsRecorded) {
    for (const e of j.entries.values()) expect(Object.keys(e)).not.toContain('service');
  } else expect(j.entries.size).toBe(0);
  j.close();
  return readFileSync(path, 'utf8').trimEnd().split('\n');
}

describe('the journal of mutations apply: the same bytes per line', () => {
  it.each([true, false])('keepsRecorded %s: fields in their first order, the error masked, the scope last', (keeps) => {
    const lines = linesOf(keeps);
    expect(lines[0]).toBe(
      '{"row":"r#1","line":2,"idempotencyKey":"k1","firstSentAt":5,"mutationId":null,"state":"sending","service":"http://127.0.0.1:1","keyFp":"fp1"}',
    );
    expect(lines[1]).toMatch(
      /^\{"row":"r#1","line":2,"idempotencyKey":"k1","firstSentAt":5,"mutationId":null,"state":"refused","error":"bad [^"]*","service":"http:\/\/127\.0\.0\.1:1","keyFp":"fp1"\}$/,
    );
    expect(lines[1]).not.toContain(key);
    expect(lines[2]).toBe(
      '{"row":"r#2","line":3,"idempotencyKey":"k2","firstSentAt":6,"mutationId":"mut_1","state":"pending","service":"http://127.0.0.1:1","keyFp":"fp1"}',
    );
  });

  it('escapeJsonText: a plain line is returned as it is; each unsafe character and ##[ still escaped', () => {
    expect(escapeJsonText('{"a":"b"}')).toBe('{"a":"b"}');
    expect(escapeJsonText('"x\u009by"')).toBe('"x\\u009by"');
    expect(escapeJsonText('"##[warning]"')).toBe('"##\\u005bwarning]"');
    expect(escapeJsonText('"\u2028##[x\u202e"')).toBe('"\\u2028##\\u005bx\\u202e"');
    // Twice in a row: the test regex keeps no position between calls.
    expect(escapeJsonText('"\u007f"')).toBe('"\\u007f"');
    expect(escapeJsonText('"\u007f"')).toBe('"\\u007f"');
  });
});
