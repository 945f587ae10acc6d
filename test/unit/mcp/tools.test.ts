// The operation tools of `adops mcp` built from the registry and the table
// (src/mcp/operation-tools.ts, tool-input.ts) and how a run becomes a result
// (result.ts): names, access and annotations from the operation, schemas from
// the generated inputs, argv as a person would type it, the cap.
import { describe, expect, it } from 'vitest';
import { getRegistry } from '../../../src/commands/index.js';
import { OPERATIONS } from '../../../src/contract/operations.js';
import { operationTools } from '../../../src/mcp/operation-tools.js';
import { callResult, cleaned, exitMeaning, nextCursorOf, outcomeOf, RESULT_CAP } from '../../../src/mcp/result.js';
import { argvOf } from '../../../src/mcp/tool-input.js';
import { commandOf } from '../../../src/mcp/operation-tools.js';
import { operation } from '../../../src/contract/operations.js';

const tools = operationTools(getRegistry(), '/nonexistent');
const byName = (name: string) => tools.find((t) => t.name === name)!;

describe('operation tools', () => {
  it('one per operation, each naming its own, with unique names from the command paths', () => {
    expect(tools.map((t) => t.operationIds[0])).toEqual(OPERATIONS.map((o) => o.id));
    expect(new Set(tools.map((t) => t.name)).size).toBe(OPERATIONS.length);
    for (const t of tools) expect(t.name, t.name).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('access, toolset and annotations follow the operation', () => {
    expect(byName('observe_campaigns_list')).toMatchObject({ access: 'read', toolset: 'observe', annotations: { readOnlyHint: true } });
    expect(byName('plans_line_items_delete')).toMatchObject({
      access: 'destructive',
      toolset: 'plans',
      annotations: { destructiveHint: true, idempotentHint: true },
    });
    expect(byName('skills_create')).toMatchObject({ access: 'write', toolset: 'context', annotations: { readOnlyHint: false, destructiveHint: false } });
    expect(byName('assets_rename')).toMatchObject({ access: 'write', toolset: 'assets' });
    expect(byName('mutations_start')).toMatchObject({ access: 'write', toolset: 'mutations', annotations: { idempotentHint: true } });
    expect(byName('mutations_start').callAccess?.({ body: { action: 'delete' } })).toBe('destructive');
    // Archiving a plan is an update by method, destructive by what it does.
    expect(byName('plans_update').callAccess?.({ slug: 'p', body: { revision: 1, status: 'archived' } })).toBe('destructive');
    expect(byName('plans_update').callAccess?.({ slug: 'p', body: { revision: 1, status: 'draft' } })).toBe('write');
  });

  it('the schema: path parameters and query at the top, the body as `body`, lists with cursor and limit', () => {
    const list = byName('observe_campaigns_list_live').inputSchema;
    expect(list.required).toEqual(['advertiserId']);
    expect(Object.keys(list.properties)).toEqual(expect.arrayContaining(['advertiserId', 'cursor', 'limit']));
    const update = byName('brands_personas_update').inputSchema;
    expect(update.required).toEqual(['slug', 'personaSlug', 'body']);
    expect(update.properties.body).toMatchObject({ type: 'object', additionalProperties: false });
  });

  it('argv: flags as --flag=value, the alternate flag, positionals after --, the body on stdin', () => {
    const live = commandOf(getRegistry(), operation('listLiveCampaigns'))!.plan;
    expect(argvOf(live, { advertiserId: 'acc_1', limit: 2, cursor: '-c', status: 'ACTIVE' }).argv).toEqual([
      'observe',
      'campaigns',
      'list',
      '--live=acc_1',
      '--cursor=-c',
      '--limit=2',
      '--status=ACTIVE',
    ]);
    const update = commandOf(getRegistry(), operation('updatePersona'))!.plan;
    expect(argvOf(update, { slug: '-b', personaSlug: 'p', body: { name: 'N' } }, ['--output=json'])).toEqual({
      argv: ['brands', 'personas', 'update', '--input', '-', '--output=json', '--', '-b', 'p'],
      stdin: '{"name":"N"}',
    });
  });
});

describe('results', () => {
  it('a list page carries the next cursor from the line the command prints', () => {
    expect(nextCursorOf('note\nnext cursor: abc.DEF\n')).toBe('abc.DEF');
    expect(outcomeOf({ code: 0, stdout: '[{"id":"1"}]\n', stderr: 'next cursor: x1\n' }, { list: true })).toEqual({
      ok: true,
      value: { rows: [{ id: '1' }], nextCursor: 'x1' },
    });
  });

  it('a failed run carries its report; the result says the exit code and what it means', () => {
    const stderr = 'a note\n' + JSON.stringify({ error: { code: 'forbidden', status: 403, message: 'no' } }, null, 2) + '\n';
    const outcome = outcomeOf({ code: 3, stdout: '', stderr }, { list: false });
    expect(outcome).toEqual({ ok: false, code: 3, error: { code: 'forbidden', status: 403, message: 'no' } });
    const result = callResult(outcome);
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({
      exitCode: 3,
      exitMeaning: expect.stringMatching(/^authentication, subscription or permission/),
    });
  });

  it('strings lose escape sequences and secrets before they reach the agent', () => {
    expect(cleaned({ ['\x1b[1mk']: ['\x1b]0;t\x07x', 'acr_live_abcdefghijklmnop'] })).toEqual({ k: ['x', expect.not.stringContaining('abcdefghijklmnop')] });
  });

  it(`a result is capped at ${RESULT_CAP} characters: a page keeps its first rows and says so, anything else is cut and marked`, () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({ id: String(i), text: 'x'.repeat(1000) }));
    const page = JSON.parse(callResult({ ok: true, value: { rows, nextCursor: 'n' } }).content[0]!.text);
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.rows.length).toBeLessThan(400);
    expect(page.rows[0].id).toBe('0');
    expect(page.nextCursor).toBeNull();
    expect(page.truncated).toMatch(new RegExp(`ask again with limit=${page.rows.length}`));
    // A long string is cut inside the JSON, which stays JSON; only many short strings are cut as text.
    const one = callResult({ ok: true, value: { text: 'y'.repeat(RESULT_CAP * 2) } }).content[0]!.text;
    expect(one.length).toBeLessThanOrEqual(RESULT_CAP);
    expect(JSON.parse(one).text).toMatch(/^y+\[… \d+ characters cut\]$/);
    const many = callResult({ ok: true, value: Array.from({ length: RESULT_CAP }, () => 'z') }).content[0]!.text;
    expect(many).toMatch(/\[truncated: \d+ of \d+ characters left out/);
  });

  it("an error result over the cap (a service's 200 KB message) stays JSON with its exit code and what it means", () => {
    const result = callResult({ ok: false, code: 5, error: { code: 'internal', status: 500, message: 'm'.repeat(200_000) } });
    expect(result.isError).toBe(true);
    const report = JSON.parse(result.content[0]!.text);
    expect(report.exitCode).toBe(5);
    expect(report.exitMeaning).toBe(exitMeaning(5));
    expect(report.error).toMatchObject({ code: 'internal', status: 500, message: expect.stringMatching(/^m+\[… \d+ characters cut\]$/) });
  });
});
