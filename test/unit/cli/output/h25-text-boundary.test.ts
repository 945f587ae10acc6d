// Issue 25 §3: one boundary for text from outside (sanitize.ts). Each sink's
// entry is fed escapes, line breaks, the key and shell metacharacters: a
// terminal line or table cell, a note or error on stderr, a CSV cell, JSON,
// and a completion candidate.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/client/errors.js';
import { rememberSecret } from '../../../../src/client/redact.js';
import { formatReport, formatReportJson, toReport } from '../../../../src/cli/report.js';
import { blockText, cellText, completionCandidate, csvText, jsonText, jsonTexts, lineText } from '../../../../src/cli/output/sanitize.js';
import { csvCell } from '../../../../src/cli/output/writers/csv.js';
import { DANGER, EVIL, list, SAFE } from './helpers.js';

/** A key this process holds (remembered, as the client remembers it), with characters JSON escapes. */
const KEY = 'acr_h25\\boundary"key/+.0123456789';
rememberSecret(KEY);
/** A key this process never held, echoed by a server: masked by its shape. */
const ECHOED = 'acr_echoed_by_the_service_9999';
const SHELL = '$(touch pwned) `id` ; rm -rf ~ | cat > /etc/x && *';
const FORGED = 'bad\r\nInjected-Line\rerror: forged\nhint: forged\u2028Also-Forged';
const PROXY = 'http://ops:pa/ss99Secret@proxy.corp:port';

const hostile = `${EVIL} ${KEY} ${ECHOED} ${SHELL} ${FORGED} ${PROXY}`;
const noSecret = (text: string) => {
  expect(text).not.toContain('boundary');
  expect(text).not.toContain('echoed_by_the_service');
  expect(text).not.toContain('ss99Secret');
};

describe('the boundary, one entry per sink', () => {
  it('terminal line / table cell: one line, no controls, secrets masked, shell text shown as text', () => {
    for (const f of [lineText, cellText]) {
      const out = f(hostile);
      expect(out).not.toMatch(DANGER);
      expect(out).not.toMatch(/[\r\n\u2028\u2029]/);
      expect(out).toContain(SAFE);
      expect(out).toContain('acr_…6789');
      expect(out).toContain('acr_…9999');
      expect(out).toContain('http://ops:***@proxy.corp:port');
      expect(out).toContain(SHELL);
      expect(out).toContain('bad Injected-Line error: forged hint: forged Also-Forged');
      noSecret(out);
    }
  });

  it('stderr (notes, warnings, own errors): line breaks kept but every continuation indented; secrets masked', () => {
    const out = blockText(`line ${hostile}`);
    expect(out).not.toMatch(DANGER);
    const lines = out.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {2}/);
    expect(out).toContain('\n  Injected-Line\n  error: forged\n  hint: forged\n  Also-Forged');
    noSecret(out);
    // adops' own indented lines stay as they are.
    expect(blockText('3 row(s) cannot be sent:\n  line 2: x\n  line 3: y')).toBe('3 row(s) cannot be sent:\n  line 2: x\n  line 3: y');
  });

  it('an error from the service is one line of adops; in JSON too its secrets are masked', () => {
    const err = new ApiError({
      status: 500,
      method: 'GET',
      path: '/x',
      body: { error: 'internal', message: hostile, issues: [{ in: 'body', path: 'a\nb', message: FORGED }] },
    });
    const text = formatReport(toReport(err));
    expect(text).not.toMatch(DANGER);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^error: internal \(500\): /);
    // Nothing the service said starts a line: only adops' own `error:`/`hint:` lines are at column 0.
    for (const l of lines.slice(1)) expect(l).toMatch(/^( {2}|hint: )/);
    expect(lines.filter((l) => l.startsWith('error:'))).toHaveLength(1);
    expect(text).not.toMatch(/^Injected-Line/m);
    noSecret(text);
    const json = formatReportJson(toReport(err));
    noSecret(json);
    expect(JSON.parse(json).error.message).toContain('bad\r\nInjected-Line');
  });

  it('CSV cell: controls stripped, line breaks kept (quoted), secrets masked, formulas guarded', async () => {
    const cell = csvCell(`=${hostile}`);
    expect(cell).not.toMatch(DANGER);
    expect(cell.startsWith(`"'=`)).toBe(true);
    expect(cell).toContain('Injected-Line');
    noSecret(cell);
    noSecret(csvText(hostile));
    noSecret(csvCell({ nested: hostile }));
    const csv = await list([[{ id: '1', error: hostile }]], { tty: false, format: 'csv' });
    noSecret(csv);
    expect(csv.split('\n')[0]).toBe('id,error');
  });

  it('JSON and NDJSON: every character kept (escaped), secrets masked even in their escaped form', async () => {
    expect(jsonText({ k: KEY })).not.toContain('boundary');
    expect(jsonText({ k: KEY })).toContain('acr_…6789');
    noSecret(jsonTexts([{ a: hostile }, { b: [KEY] }], () => '', '\n'));
    for (const format of ['json', 'ndjson'] as const) {
      const out = await list([[{ id: '1', error: hostile, headers: { 'x-echo': KEY } }]], { tty: false, format });
      noSecret(out);
      const first = format === 'json' ? JSON.parse(out)[0] : JSON.parse(out.split('\n')[0]!);
      expect(first.error).toContain(SHELL);
      expect(first.error).toContain('Injected-Line');
    }
  });

  it('a table: every cell through the boundary', async () => {
    const out = await list([[{ id: '1', name: hostile }]], { tty: true });
    expect(out).not.toMatch(DANGER);
    noSecret(out);
    expect(out).not.toMatch(/^Injected-Line/m);
  });

  it('completion candidate: the id alphabet or nothing', () => {
    for (const ok of ['acc_acme_a_001', 'tab-brand', 'acc_ok~1', 'ast_0f3a.v2', 'mut_ABC123', '_x']) expect(completionCandidate(ok), ok).toBe(ok);
    const refused = [
      '*',
      '~root',
      ':files',
      ':dirs',
      '--help',
      '-rf',
      'acc_`id`',
      'acc_with space',
      'acc_$(touch pwned)',
      'acc_$(touch${IFS}pwned)',
      'acc_;id',
      'acc_|id',
      'acc_>f',
      'acc_&',
      "acc_'q'",
      'acc_"q"',
      'acc_\\x',
      'acc_\nsecond',
      'acc_\tx',
      'acc_\u001b[2J',
      'acc_é',
      'acc_a=b',
      'acc_{a,b}',
      'acc_[ab]',
      'acc_?',
      'acc_!',
      'acc_#',
      'acc_%',
      '',
      ECHOED,
      KEY,
    ];
    for (const bad of refused) expect(completionCandidate(bad), JSON.stringify(bad)).toBeUndefined();
  });
});
