import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../src/client/errors.js';
import { InsecureBaseUrlError } from '../../../src/client/origin.js';
import { CliError, UsageError, InterruptedError } from '../../../src/cli/errors.js';
import { EXIT, EXIT_CODE_TABLE, exitCodeForStatus, exitCodeHelp, exitCodeOfAnswer, exitCodeTable } from '../../../src/cli/exit-codes.js';
import { exitCodesDoc } from '../../../src/cli/exit-docs.js';
import { ANSWER_TABLE, STATUS_DISPOSITIONS } from '../../../src/contract/errors.js';
import { toReport } from '../../../src/cli/report.js';

const api = (status: number, error?: string) => new ApiError({ status, body: error ? { error, message: 'm' } : 'plain', method: 'GET', path: '/x' });

describe('exit codes', () => {
  it('maps statuses as documented', () => {
    const expected: Record<number, number> = {
      400: 7,
      401: 3,
      402: 3,
      403: 3,
      404: 4,
      409: 5,
      413: 7,
      415: 7,
      422: 7,
      429: 6,
      500: 1,
      501: 7,
      502: 6,
      503: 6,
      504: 6,
    };
    for (const [status, code] of Object.entries(expected)) expect(exitCodeForStatus(Number(status))).toBe(code);
  });
  it('a failure answer as a whole: a redirect or an answer breaking the contract is 1, else its row (one rule for every command)', () => {
    expect(exitCodeOfAnswer(302, 'http_302')).toBe(EXIT.unexpected);
    expect(exitCodeOfAnswer(502, 'unexpected_answer')).toBe(EXIT.unexpected);
    expect(exitCodeOfAnswer(200, 'unexpected_answer')).toBe(EXIT.unexpected);
    expect(exitCodeOfAnswer(502, 'provider_error')).toBe(exitCodeForStatus(502, 'provider_error'));
    expect(exitCodeOfAnswer(403, 'forbidden')).toBe(EXIT.auth);
    // The report of an ApiError, auth login's and status-all's, doctor's: all read it.
    expect(toReport(api(302)).exitCode).toBe(EXIT.unexpected);
    expect(toReport(api(502, 'unexpected_answer')).exitCode).toBe(EXIT.unexpected);
  });

  it('maps every kind of failure', () => {
    expect(toReport(api(409, 'revision_mismatch')).exitCode).toBe(EXIT.conflict);
    expect(toReport(api(302, 'redirect_refused')).exitCode).toBe(EXIT.unexpected);
    expect(toReport(new NetworkError('x', 'connect', false, 'GET', '/')).exitCode).toBe(EXIT.unavailable);
    expect(toReport(new UsageError('x')).exitCode).toBe(EXIT.usage);
    expect(toReport(new InsecureBaseUrlError('x')).exitCode).toBe(EXIT.usage);
    expect(toReport(new CliError('x', EXIT.waitTimeout)).exitCode).toBe(8);
    expect(toReport(new InterruptedError()).exitCode).toBe(130);
    expect(toReport(new TypeError('boom')).exitCode).toBe(EXIT.unexpected);
    const promptCancelled = Object.assign(new Error('User force closed the prompt'), { name: 'ExitPromptError' });
    expect(toReport(promptCancelled).exitCode).toBe(130);
  });
  it('carries the spec action as the hint', () => {
    expect(toReport(api(501, 'live_read_unsupported')).hint).toMatch(/stored copy/);
    expect(toReport(api(409, 'provider_not_connected')).hint).toMatch(/reconnects/);
    expect(toReport(api(502, 'provider_error')).retryable).toBe(true);
  });
  it('every "NNN (and NNN) to exit N" in the docs says what the code does', () => {
    let checked = 0;
    for (const name of ['decisions.md', 'exit-codes.md', 'architecture.md']) {
      const doc = readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
      for (const m of doc.matchAll(/\b([1-5]\d\d)((?:,? (?:and )?[1-5]\d\d)*)(?: \([^)]*\))? to (?:exit )?(\d)\b/g)) {
        for (const status of [m[1], ...(m[2]!.match(/\d{3}/g) ?? [])]) {
          expect(exitCodeForStatus(Number(status)), `${name}: "${m[0]}"`).toBe(Number(m[3]));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });
  it('docs/exit-codes.md holds the generated tables (regenerate: npm run gen)', () => {
    const doc = readFileSync(new URL('../../../docs/exit-codes.md', import.meta.url), 'utf8');
    expect(doc, 'regenerate: npm run gen').toBe(exitCodesDoc(doc));
    for (const [code, text] of EXIT_CODE_TABLE) expect(doc).toContain(`| ${code} | ${text} |`);
    for (const [status, row] of Object.entries(STATUS_DISPOSITIONS)) expect(doc).toContain(`| ${'label' in row ? row.label : status} | `);
  });
  it("the statuses the help's exit table names come from the answer table's exit cells, none by hand", () => {
    const moved = { ...ANSWER_TABLE, statuses: { ...ANSWER_TABLE.statuses, 502: { ...STATUS_DISPOSITIONS[502], exit: 'unexpected' as const } } };
    const text = (table: typeof ANSWER_TABLE, code: number) => exitCodeTable(table.statuses).find(([c]) => c === code)![1];
    expect(text(ANSWER_TABLE, EXIT.unavailable)).toContain('408, 429, 502, 503, 504');
    expect(text(moved, EXIT.unavailable)).toContain('408, 429, 503, 504');
    expect(text(moved, EXIT.unexpected)).toContain('such as 500, 502 or a redirect');
    expect(exitCodeForStatus(502, undefined, moved)).toBe(EXIT.unexpected);
    // `adops --help` prints the generated table; the source of its text names no status.
    expect(exitCodeHelp().split('\n').slice(1)).toEqual(EXIT_CODE_TABLE.map(([c, t]) => `  ${String(c).padStart(3)}  ${t}`));
    const source = readFileSync(new URL('../../../src/cli/exit-codes.ts', import.meta.url), 'utf8').replace(/^\s*(\/\/|\*|\/\*\*).*$/gm, '');
    expect(source.match(/\b[1-5]\d\d\b/g)).toEqual(['130', '143']);
  });
});
