// The gate of `adops mcp` (src/mcp/gate.ts): what it offers and what it lets
// through, for every combination of the flags.
import { describe, expect, it } from 'vitest';
import { accessAllowed, offered, parseToolsets, refusal, type GateOptions } from '../../../src/mcp/gate.js';
import type { ToolAccess, Toolset } from '../../../src/mcp/tool-def.js';

const tool = (access: ToolAccess, toolset: Toolset = 'observe', callAccess?: (a: Record<string, unknown>) => ToolAccess) => ({
  name: `t_${access}`,
  access,
  toolset,
  ...(callAccess ? { callAccess } : {}),
});
const READ_ONLY: GateOptions = { allowWrites: false, allowDestructive: false };
const WRITES: GateOptions = { allowWrites: true, allowDestructive: false };
const ALL: GateOptions = { allowWrites: true, allowDestructive: true };

describe('gate', () => {
  it.each([
    ['read', READ_ONLY, true],
    ['write', READ_ONLY, false],
    ['destructive', READ_ONLY, false],
    ['read', WRITES, true],
    ['write', WRITES, true],
    ['destructive', WRITES, false],
    ['destructive', ALL, true],
    // --allow-destructive alone is no write permission (the command refuses it as a usage error too).
    ['destructive', { allowWrites: false, allowDestructive: true }, false],
  ] as const)('%s under %j: %s', (access, o, allowed) => {
    expect(accessAllowed(access, o)).toBe(allowed);
    expect(offered(tool(access), o)).toBe(allowed);
    expect(refusal(tool(access), {}, o) === undefined).toBe(allowed);
  });

  it('--toolsets leaves the others out of the list and refuses them by name', () => {
    const toolsets: Toolset[] = ['plans'];
    const o = { ...ALL, toolsets };
    expect(offered(tool('read', 'plans'), o)).toBe(true);
    expect(offered(tool('read', 'observe'), o)).toBe(false);
    expect(refusal(tool('read', 'observe'), {}, o)).toMatch(/toolset observe, which this server does not offer/);
  });

  it('a call whose arguments make it destructive (a mutation that archives) needs --allow-destructive, though the tool is offered', () => {
    const mutation = tool('write', 'mutations', (a) => (a.action === 'archive' ? 'destructive' : 'write'));
    expect(offered(mutation, WRITES)).toBe(true);
    expect(refusal(mutation, { action: 'pause' }, WRITES)).toBeUndefined();
    expect(refusal(mutation, { action: 'archive' }, WRITES)).toMatch(/--allow-destructive/);
    expect(refusal(mutation, { action: 'archive' }, ALL)).toBeUndefined();
    expect(refusal(mutation, { action: 'pause' }, READ_ONLY)).toMatch(/read-only \(start it with --allow-writes\)/);
  });

  it('parses --toolsets, naming the words that are none', () => {
    expect(parseToolsets(['Observe', ' plans', 'observe'])).toEqual({ toolsets: ['observe', 'plans'], unknown: [] });
    expect(parseToolsets(['observe', 'billing'])).toEqual({ toolsets: ['observe'], unknown: ['billing'] });
  });
});
