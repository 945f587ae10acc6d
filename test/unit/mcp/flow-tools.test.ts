// The flow tools' definitions (src/mcp/flow-tools.ts) as the server lists them, and how a run's streams are
// read (src/mcp/flows/run-json.ts): what an agent and the gate rely on without running anything.
import { describe, expect, it } from 'vitest';
import { flowTools } from '../../../src/mcp/flow-tools.js';
import { failure, readRun } from '../../../src/mcp/flows/run-json.js';
import { TOOLSETS } from '../../../src/mcp/tool-def.js';
import { isOperationId } from '../../../src/contract/operations.js';
import { tempDir } from '../../helpers/temp.js';

const tools = flowTools({ changeDir: tempDir('mcp-flow-defs-') });

describe('flow tool definitions', () => {
  it('the seven flows, each named once, in a toolset, with operations of the contract', () => {
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['assets_upload', 'mutations_apply', 'mutations_preview', 'mutations_undo', 'observe_drift', 'plans_pacing', 'plans_verify'].sort(),
    );
    for (const t of tools) {
      expect(TOOLSETS, t.name).toContain(t.toolset);
      expect(t.operationIds.length, t.name).toBeGreaterThan(0);
      for (const op of t.operationIds) expect(isOperationId(op), `${t.name}: ${op}`).toBe(true);
    }
  });

  it('read tools say readOnlyHint and are offered read-only; write tools are gated as writes and never destructive', () => {
    const read = tools.filter((t) => t.access === 'read').map((t) => t.name);
    expect(read.sort()).toEqual(['mutations_preview', 'observe_drift', 'plans_pacing', 'plans_verify']);
    for (const t of tools) {
      expect(t.annotations.readOnlyHint, t.name).toBe(t.access === 'read');
      expect(t.annotations.destructiveHint, t.name).toBe(false);
      expect(t.access, t.name).not.toBe('destructive');
    }
  });

  it('every input property is described or typed, required names exist, no unknown property is taken', () => {
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
      expect(t.description.length, t.name).toBeGreaterThan(40);
      for (const r of t.inputSchema.required ?? []) expect(Object.keys(t.inputSchema.properties), t.name).toContain(r);
      for (const [name, p] of Object.entries(t.inputSchema.properties)) expect(p, `${t.name}.${name}`).toHaveProperty('type');
    }
  });
});

describe('reading a run', () => {
  it('stdout as JSON; stderr as notes and the one JSON error report', () => {
    const r = readRun({
      code: 4,
      stdout: '[{"a":1}]\n',
      stderr: 'note: reading\n{"error":{"code":"not_found","status":404,"message":"no plan","exitCode":4}}\n',
    });
    expect(r).toEqual({ code: 4, value: [{ a: 1 }], notes: ['note: reading'], report: { code: 'not_found', status: 404, message: 'no plan', exitCode: 4 } });
    expect(failure(r)).toEqual({
      ok: false,
      code: 4,
      error: { code: 'not_found', status: 404, message: 'no plan', exitCode: 4, notes: ['note: reading'], output: [{ a: 1 }] },
    });
  });

  it('a failure with no report (rows that failed): its last note, its exit code, the rows printed', () => {
    const r = readRun({ code: 9, stdout: '[]', stderr: '1 change(s) failed and changed nothing\n' });
    expect(failure(r)).toEqual({
      ok: false,
      code: 9,
      error: {
        code: 'command_failed',
        message: '1 change(s) failed and changed nothing',
        exitCode: 9,
        notes: ['1 change(s) failed and changed nothing'],
        output: [],
      },
    });
    expect(readRun({ code: 0, stdout: '', stderr: '' }).value).toBeUndefined();
  });
});
