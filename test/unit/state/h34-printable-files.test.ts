// Issue #34 §3: no escape sequence in any journal or cache. adops' own files
// hold a service's text (a mutation id, an error code, an Asset id, an upload
// URL): JSON.stringify escapes C0 controls only, so an 8-bit CSI (U+009B), a
// bidi override or a line separator reached the file as it came, and
// `cat journal.ndjson` drove the terminal. Written now as \u escapes: the file
// prints safely and reads back the very same values (an id is still the id).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printableJson } from '../../../src/client/json.js';
import { CompletionCache } from '../../../src/state/completion-cache.js';
import { Journal } from '../../../src/state/mutation-journal.js';
import { PlanApplyMarkers } from '../../../src/state/plan-markers.js';
import { UploadJournal } from '../../../src/state/upload-journal.js';
import { tempDir } from '../../helpers/temp.js';

/** What a hostile service may put in a field: 8-bit CSI and OSC, DEL, a bidi override and isolate, LS/PS. */
const HOSTILE = 'x\u009b2J\u009d0;t\u009c\u007f\u202eevil\u2066\u2028\u2029';
const UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
}

describe("adops' own files print safely and read back what was written", () => {
  it('printableJson: the same value for JSON.parse, none of the unsafe characters in the text', () => {
    const value = { id: `mut_${HOSTILE}`, nested: [HOSTILE], plain: 'é ✓ ascii' };
    const text = printableJson(value);
    expect(text).not.toMatch(UNSAFE);
    expect(JSON.parse(text)).toEqual(value);
    expect(text).toContain('é ✓ ascii');
  });

  it('the mutations apply journal: a refused code and a mutation id', () => {
    const path = join(tempDir('adops-h34-journal-'), 'j.ndjson');
    const j = new Journal(path);
    j.record({ row: 'r#1', line: 2, idempotencyKey: 'k1', firstSentAt: 1, mutationId: null, state: 'refused', error: `invalid_${HOSTILE}` });
    j.record({ row: 'r#2', line: 3, idempotencyKey: 'k2', firstSentAt: 1, mutationId: `mut_${HOSTILE}`, state: 'pending' });
    j.close();
    expect(readFileSync(path, 'utf8')).not.toMatch(UNSAFE);
    expect(new Journal(path).get('r#2')?.mutationId).toBe(`mut_${HOSTILE}`);
  });

  it('the upload journal, a plan marker and the completion cache', async () => {
    const dir = tempDir('adops-h34-files-');
    const uploads = new UploadJournal(dir, { baseUrl: 'http://s', keyFp: 'k1' });
    const slot = await uploads.open('asset', 10, 'ab'.repeat(32));
    await slot.put({ id: `ast_${HOSTILE}`, keyFp: 'k1', state: 'reserved', uploadUrl: `http://storage/u/${HOSTILE}`, updatedAt: 1 });
    slot.release();
    expect(uploads.peek('asset', 10, 'ab'.repeat(32))[0]?.id).toBe(`ast_${HOSTILE}`);

    const markers = new PlanApplyMarkers(dir, 'scope');
    markers.claim(`plan-${HOSTILE}`);
    markers.created(`plan-${HOSTILE}`, 5);

    new CompletionCache(join(dir, 'completion-cache', 's')).write('asset', [{ id: 'ast_1', description: HOSTILE }]);

    const written = filesUnder(dir);
    expect(written.length).toBeGreaterThanOrEqual(3);
    for (const f of written) expect(readFileSync(join(dir, f), 'utf8'), f).not.toMatch(UNSAFE);
  });
});
