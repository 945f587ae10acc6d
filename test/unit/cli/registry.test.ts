import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getRegistry } from '../../../src/commands/index.js';
import { completionScript, SHELLS } from '../../../src/cli/completion.js';
import { commandReference } from '../../../src/cli/docs.js';
import { operationCommand } from '../../../src/commands/_shared/operation-command.js';
import { Registry, type CommandSpec } from '../../../src/cli/registry.js';
import { OPERATION_BY_ID } from '../../../src/contract/operations.js';

const noop: CommandSpec['load'] = async () => ({ run: async () => 0 });
const read = (p: string) => readFileSync(new URL(`../../../${p}`, import.meta.url), 'utf8');
const REGEN = 'regenerate: npm run gen';

describe('registry', () => {
  it('refuses duplicate commands, orphan commands and option clashes', () => {
    const g = [{ path: ['a'], description: 'a' }];
    expect(
      () =>
        new Registry(g, [
          { path: ['a', 'x'], description: '', load: noop },
          { path: ['a', 'x'], description: '', load: noop },
        ]),
    ).toThrow(/duplicate command/);
    expect(() => new Registry(g, [{ path: ['b', 'x'], description: '', load: noop }])).toThrow(/no group b/);
    expect(() => new Registry(g, [{ path: ['a', 'x'], description: '', options: [{ flags: '--profile <p>', description: '' }], load: noop }])).toThrow(
      /duplicate option --profile/,
    );
    expect(() => new Registry(g, [{ path: ['a'], description: '', load: noop }])).toThrow(/also a group/);
  });

  it('builds the real command list; every operationId exists in the contract', () => {
    const r = getRegistry();
    for (const c of r.commands) if (c.operationId) expect(OPERATION_BY_ID.has(c.operationId)).toBe(true);
    const paths = r.commands.map((c) => c.path.join(' '));
    for (const p of [
      'observe campaigns list',
      'observe campaigns get',
      'observe insights',
      'observe ad-groups list',
      'skills catalog import',
      'brands personas get',
      'plans line-items record',
      'observe ads list',
      'observe creatives list',
      'observe asset-groups list',
      'mutations list',
      'mutations get',
      'assets list',
      'assets get',
      'api',
      'doctor',
      'completion',
      'auth login',
      'auth status',
      'auth logout',
      'config get',
      'config set',
      'config list',
      'sandbox serve',
      'sandbox keys',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('operation commands take one positional argument per path param, in order, named by the param or argNames', () => {
    const c = operationCommand({ path: ['assets', 'get'], operationId: 'getAsset', resource: 'asset' });
    expect(c.args?.map((a) => [a.name, a.required])).toEqual([['id', true]]);
    const persona = operationCommand({ path: ['p'], operationId: 'getPersona', argNames: { slug: 'brand' }, resource: 'persona' });
    expect(persona.args?.map((a) => a.name)).toEqual(['brand', 'persona']);
    const del = operationCommand({ path: ['assets', 'delete'], operationId: 'deleteAsset', resource: 'asset' });
    expect(del.destructive).toBe(true);
    expect(del.options?.map((o) => o.flags)).toContain('-f, --field <key=value>');
  });

  it('the first level used by `adops --help` matches the registry', async () => {
    const { TOP_LEVEL } = await import('../../../src/cli/top-level.js');
    expect(TOP_LEVEL.map(({ name, description, group }) => ({ name, description, group }))).toEqual(getRegistry().children([]));
  });

  it('no command offers a --key flag (a key in argv shows in ps)', () => {
    const all = getRegistry().commands.flatMap((c) => (c.options ?? []).map((o) => o.flags));
    expect(all.filter((f) => /--(api-)?key\b/.test(f))).toEqual([]);
  });

  it('the committed completions are current', () => {
    for (const shell of SHELLS) expect(read(`completions/adops.${shell}`), REGEN).toBe(completionScript(getRegistry(), shell));
  });

  it('each completion script asks `adops __complete` and hands :files/:dirs to the shell (test/e2e/completion.test.ts runs them)', () => {
    for (const shell of SHELLS) {
      const text = completionScript(getRegistry(), shell);
      expect(text, shell).toContain('__complete');
      expect(text, shell).toContain(':files');
      expect(text, shell).toContain(':dirs');
    }
  });

  it('docs/cli.md is current', () => {
    expect(read('docs/cli.md'), REGEN).toBe(commandReference(getRegistry()));
  });
});
