// A sibling of #34 §3's markdown finding, in the same boundary: GitHub Actions'
// runner reads every line a step prints for workflow commands (`::error::…` at
// the start of a line after blanks, `##[error]…` anywhere in one), so service
// text printed by adops could add annotations, mask words or stop command
// processing for the rest of the step. Each sink of the boundary is fed them
// and read as the runner reads a log (helpers/workflow-commands.ts).
import { describe, expect, it } from 'vitest';
import { printableJson } from '../../../../src/client/json.js';
import { blockText, csvText, jsonText, jsonTexts, lineText, stripControl } from '../../../../src/cli/output/sanitize.js';
import { inline } from '../../../../src/cli/output/writers/markdown.js';
import { formatReport, type ErrorReport } from '../../../../src/cli/report.js';
import { workflowCommands } from '../../../helpers/workflow-commands.js';

const COMMANDS = [
  '::error file=a.ts,line=1::forged annotation',
  '  ::add-mask::hide-this',
  '\t::stop-commands::tok',
  'text before ##[warning]forged anywhere in a line',
  '::group::fold the rest',
  '##[set-output name=x]y',
];
const TEXT = COMMANDS.join('\n');

describe('no sink lets outside text be read as a workflow command', () => {
  it('the text as it came holds six commands (the reader is right)', () => {
    expect(workflowCommands(TEXT)).toHaveLength(6);
  });

  it('terminal lines, notes, CSV cells and markdown: each command broken by an invisible word joiner', () => {
    for (const [sink, out] of [
      ['lineText', lineText(TEXT)],
      ['blockText', `note: ${blockText(TEXT)}`],
      ['stripControl', stripControl(TEXT)],
      ['csvText', csvText(TEXT)],
      ['markdown', inline(TEXT, { table: true })],
    ] as const) {
      expect(workflowCommands(out), `${sink}:\n${out}`).toEqual([]);
      // Nothing else changes: without the joiners it is the text.
      expect(out.replace(/\u2060/g, ''), sink).toContain('forged annotation');
    }
    // A colon pair that is no command is left alone (an IPv6 address).
    expect(lineText('::1')).toBe('::1');
  });

  it('JSON (stdout and adops own files): the same value back, no command in any line', () => {
    const value = { message: TEXT, list: COMMANDS };
    const ndjson = jsonTexts([value, value], () => '', '\n');
    for (const out of [jsonText(value), jsonText(value, 2), ndjson, printableJson(value)]) expect(workflowCommands(out)).toEqual([]);
    for (const out of [jsonText(value), jsonText(value, 2), printableJson(value), ...ndjson.trimEnd().split('\n')]) expect(JSON.parse(out)).toEqual(value);
  });

  // #37 session 4: each part of an error's text was cleaned alone, and a service's issue `in` of `::error` met the
  // `: ` adops writes after its path and the message's own `::` only once the line was joined.
  it('an error report composed of parts cleaned one by one: no command where the parts meet', () => {
    const report: ErrorReport = {
      code: ':',
      status: 400,
      message: ':warning::from the message',
      issues: [{ in: '::error', path: 'file=a.ts', message: '::forged annotation' }],
      retryable: false,
      hint: null,
      exitCode: 2,
    };
    const out = formatReport(report);
    expect(workflowCommands(out), out).toEqual([]);
    expect(out.replace(/\u2060/g, '')).toContain('  ::error file=a.ts: ::forged annotation');
  });
});
