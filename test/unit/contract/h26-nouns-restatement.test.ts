// #26: the facts of a noun and of an operation are stated once (src/contract/resources.ts, the
// operation modules) and read from there: the observe commands are built from the nouns'
// `observe` blocks, and the command lines a message tells the user to run are written from the
// table's command entries (src/contract/command-line.ts), never spelt.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plainParse } from '../../../src/cli/program.js';
import { getRegistry } from '../../../src/commands/index.js';
import { commandLine, commandName } from '../../../src/contract/command-line.js';
import { OPERATIONS, type OperationId } from '../../../src/contract/operations.js';
import { observeBlocks, RESOURCES, resourceEntries } from '../../../src/contract/resources.js';
import { assetTarget, documentTarget } from '../../../src/flows/upload-targets.js';
import type { Requester } from '../../../src/client/request.js';
import type { CommandSpec } from '../../../src/cli/registry.js';
import type { ViewName } from '../../../src/cli/output/resources.js';
import type { OperationCommandOptions } from '../../../src/commands/_shared/operation-command.js';

const SRC = new URL('../../../src/', import.meta.url).pathname;

/** Every .ts file under src/<dir>, with its text. */
function sources(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(join(SRC, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => {
      const file = join(e.parentPath, e.name);
      return { file: file.slice(SRC.length), text: readFileSync(file, 'utf8') };
    });
}

/** A client that must not be used: building a target's hints sends nothing. */
const noClient: Requester = {
  request: () => Promise.reject(new Error('a hint sent a request')),
};

describe('the observe commands come from the nouns', () => {
  const registry = getRegistry();
  const entityGroups = registry.groups.filter((g) => g.path[0] === 'observe' && g.path.length === 2);

  it('each noun with an observe block has its group, list and get, with its operation ids; no other entity group exists', () => {
    const nouns = resourceEntries().filter(([, r]) => r.observe);
    expect(nouns.map(([, r]) => r.observe!.word).sort()).toEqual(entityGroups.map((g) => g.path[1]).sort());
    for (const [name, r] of nouns) {
      const o = r.observe!;
      const list = registry.find(['observe', o.word, 'list']).command;
      const get = registry.find(['observe', o.word, 'get']).command;
      expect(list?.operationId).toBe(o.stored);
      expect(list?.alternates?.map((a) => a.operationId)).toEqual([o.live]);
      expect(list?.data).toMatchObject({ resource: name });
      expect(get?.operationId).toBe(o.get);
      expect(list?.description).toContain(o.plural);
      expect(get?.description).toContain(`one ${r.noun} `);
    }
  });

  it('observe drift performs the campaign and ad-group blocks’ lists', () => {
    const drift = registry.find(['observe', 'drift']).command!;
    const { campaign, adGroup } = RESOURCES;
    expect(drift.flowOperations).toEqual([campaign.observe.live, campaign.observe.stored, adGroup.observe.live, adGroup.observe.stored]);
  });

  // Where the Observe table was restated: observe's definitions, drift's levels, the sandbox's routes' types.
  // (A flow that performs one read names its typed id, as `auth login` probes with listCampaigns; the sandbox keys its handlers by id.)
  it('observe, drift and the sandbox Observe routes spell no Observe entity operation id outside their handlers (they read the nouns)', () => {
    const ids = observeBlocks().flatMap((o) => [o.stored, o.live, o.get]);
    const handlers = /^export const OBSERVE_HANDLERS = \{.*?^\} satisfies/ms;
    const files = [
      ...sources('commands/observe'),
      ...sources('flows').filter((f) => f.file.endsWith('drift.ts')),
      ...sources('sandbox/routes').filter((f) => f.file.endsWith('observe.ts')),
    ];
    const found = files
      .map((f) => ({ ...f, text: f.text.replace(handlers, '') }))
      .flatMap(({ file, text }) => ids.filter((id) => text.includes(`'${id}'`)).map((id) => `${file}: '${id}'`));
    expect(found).toEqual([]);
  });
});

describe('command lines in messages are written from the table', () => {
  const registry = getRegistry();

  /** The command a line names and what it parses to, through the CLI's own parser. */
  const parse = (line: string) => {
    const words = line.split(' ');
    expect(words[0]).toBe('adops');
    const parsed = plainParse(registry, words.slice(1));
    if (!parsed) throw new Error(`not a command line of the registry: ${line}`);
    return parsed;
  };

  it("an upload's hints name the delete and list commands, with their arguments and flags", () => {
    const asset = assetTarget(noClient);
    const document = documentTarget(noClient, 'acme');
    const del = parse(asset.deleteCommand('ast_1'));
    expect(del.spec.operationId).toBe('deleteAsset');
    expect(Object.values(del.input.args)).toEqual(['ast_1']);
    expect(del.input.opts.yes).toBe(true);
    const delDoc = parse(document.deleteCommand('doc_1'));
    expect(delDoc.spec.operationId).toBe('deleteDocument');
    expect(Object.values(delDoc.input.args)).toEqual(['acme', 'doc_1']);
    const list = parse(asset.listReservedCommand);
    expect(list.spec.operationId).toBe('listAssets');
    expect(list.input.opts.state).toBe('reserved');
    const listDoc = parse(document.listReservedCommand);
    expect(listDoc.spec.operationId).toBe('listDocuments');
    expect(listDoc.input.opts.state).toBe('pending_upload');
  });

  it('commandLine and commandName name the command of every operation that has one', () => {
    for (const op of OPERATIONS) {
      if (!op.cli) continue;
      const params = Object.fromEntries([...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => [m[1]!, `v_${m[1]}`]));
      const parsed = parse(commandLine(op.id, params));
      expect(parsed.spec.operationId).toBe(op.id);
      expect(commandName(op.id)).toBe(['adops', ...op.cli.path].join(' '));
    }
  });

  it('no message in the CLI commands or flows spells the words of a table command (`adops assets delete …`)', () => {
    const paths = OPERATIONS.flatMap((op) => (op.cli ? [{ id: op.id, words: `adops ${op.cli.path.join(' ')}` }] : []));
    const spelt: string[] = [];
    for (const { file, text } of [...sources('commands'), ...sources('flows')]) {
      // Help examples are the commands' own declarations (`examples: [...]`): only messages are checked.
      const messages = text.replace(/examples: \[[^\]]*\]/gs, '');
      for (const { id, words } of paths) {
        if (new RegExp(`[\`'"]${words.replace(/ /g, ' ')}(?![a-z-])`).test(messages) || new RegExp(`\`${words}(?![a-z-])`).test(messages)) {
          spelt.push(`${file}: ${words} (${id satisfies OperationId})`);
        }
      }
    }
    expect(spelt).toEqual([]);
  });
});

describe('nouns and operation ids are typed where the CLI names them (checked by `tsc -p test`)', () => {
  it('a misspelt noun, view or operation id does not compile', () => {
    // @ts-expect-error the noun is 'campaign'
    const noun: OperationCommandOptions['resource'] = 'campaigns';
    // @ts-expect-error drift's rows are the view 'drift'
    const view: ViewName = 'drifts';
    // @ts-expect-error the operation is listCampaigns
    const op: NonNullable<CommandSpec['operationId']> = 'listCampaign';
    // @ts-expect-error a flow's operations are ids of the table
    const flow: CommandSpec['flowOperations'] = ['uploadAsset'];
    expect([noun, view, op, flow]).toHaveLength(4);
  });
});
