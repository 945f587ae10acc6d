// The generic "operation command": from an operation id and a few words of
// naming, build a CommandSpec whose flags, arguments and checks all derive
// from what the operation accepts (src/contract/generated/operation-inputs.json,
// emitted from the contract's zod schemas). The handler is the shared
// src/commands/operation.ts, loaded lazily; what it reads is in
// operation-data.ts. Plain data: imported on the help fast path.
import type { FieldInput } from '../../contract/operation-inputs.js';
import { operation, OPERATIONS, pathParams, type OperationId } from '../../contract/operations.js';
import { cliOf, flagName, kebab } from '../../contract/command-line.js';
import type { ResourceName } from '../../contract/resources.js';
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN } from '../../contract/ids.js';
import type { OptionsOf, TypedModule } from '../../cli/command-input.js';
import type { ArgSpec, CommandSpec, OptionSpec } from '../../cli/registry.js';
import { EXIT } from '../../cli/exit-codes.js';
import {
  inputsOf,
  type AlternateFlag,
  type FieldFlag,
  type OperationCommandData,
  type OperationHandler,
  type OperationInput,
  type ParamArg,
} from './operation-data.js';
import { INTERVAL_HELP } from '../../client/poll-pace.js';

export interface OperationCommandOptions<Extra extends readonly OptionSpec[] = readonly OptionSpec[]> {
  path: readonly string[];
  /** An id of the operation table: a misspelt one does not compile. */
  operationId: OperationId;
  description?: string;
  examples?: readonly string[];
  notes?: string;
  /** Names of the positional arguments by path parameter, where the default does not fit (e.g. slug -> brand). */
  argNames?: Readonly<Record<string, string>>;
  /** Flag names by field, where the default (kebab-case; `campaignId` -> `campaign`) does not fit. */
  flagNames?: Readonly<Record<string, string>>;
  /** Fields that get no flag of their own (sent with -f/-F/--input, or filled by the handler). */
  noFlag?: readonly string[];
  /**
   * A flag that switches to another operation whose path names the advertiser
   * (stored vs live reads): `--live acc_1` -> listLiveCampaigns with advertiserId=acc_1.
   */
  alternate?: AlternateFlag;
  /** The noun it shows (src/contract/resources.ts), for table columns and --fields checks. */
  resource: ResourceName;
  /** Adds --wait/--timeout/--interval: poll the result until it is no longer running. */
  watch?: boolean;
  /** Exit codes of its own handler besides a wait's (CommandSpec.exits). */
  exits?: readonly number[];
  /** A handler of its own instead of the generic one (it receives the same data). */
  load?: () => Promise<OperationHandler<OptionsOf<Extra>>>;
  /** Extra options the custom handler reads (its input is typed from them). */
  extraOptions?: Extra;
  /**
   * An update of a revisioned row, made revision-safe by src/commands/_shared/edit.ts:
   * `--revision N` stays strict; without it the row is read, and after a race the
   * change is re-applied when the other writer touched other fields (`--force`).
   */
  revisionSafe?: boolean;
  hidden?: boolean;
}

const FORCE_OPTION: OptionSpec = { flags: '--force', description: 'when someone else changed the same field meanwhile, write yours over theirs' };
const REVISION_OPTIONS: readonly OptionSpec[] = [
  {
    flags: '--revision <n>',
    description:
      'write only over this revision (a stale one exits 5); without it the current one is read, and a change by someone else to other fields is kept',
    type: 'int',
  },
  FORCE_OPTION,
];

const DEFAULT_ARG_NAMES: Readonly<Record<string, string>> = { personaSlug: 'persona', catalogSlug: 'catalog-slug' };
/** Paging fields have flags of their own (--limit, --cursor, --all, --max). */
const PAGING = new Set(['cursor', 'limit']);

/** Fields a flag can carry: scalars, and arrays of scalars as comma-separated lists. */
function flaggable(f: FieldInput): boolean {
  if (f.type === 'array') return f.items === 'string' || f.items === 'integer' || f.items === 'number';
  return f.type !== 'object' && f.type !== 'any';
}

function valueName(f: FieldInput): string {
  if (f.format === 'date') return 'YYYY-MM-DD';
  if (f.type === 'integer' || f.type === 'number') return 'n';
  if (f.type === 'array') return 'a,b';
  return kebab(f.name).replace(/-id$/, '-id');
}

function describeField(f: FieldInput, where: 'query' | 'body'): string {
  const base = f.description?.replace(/\s+/g, ' ').replace(/\.$/, '') ?? `${where === 'query' ? 'filter on' : 'set'} ${f.name}`;
  const extra: string[] = [];
  if (f.required) extra.push('required');
  if (f.nullable && where === 'body') extra.push('"null" clears it');
  return extra.length ? `${base} (${extra.join('; ')})` : base;
}

export function fieldOption(ff: FieldFlag): OptionSpec {
  const f = ff.input;
  const flags = f.type === 'boolean' ? `--${ff.flag}` : `--${ff.flag} <${valueName(f)}>`;
  return {
    flags,
    description: describeField(f, ff.in),
    ...(f.enum && f.type === 'string' ? { choices: f.enum.map(String) } : {}),
    ...(f.type === 'array' ? { type: 'list' as const } : {}),
    field: ff.field,
    in: ff.in,
  };
}

function fieldFlags(
  fields: readonly FieldInput[],
  where: 'query' | 'body',
  opts: Pick<OperationCommandOptions, 'noFlag' | 'revisionSafe' | 'flagNames'>,
): FieldFlag[] {
  return fields
    .filter((f) => !PAGING.has(f.name) && !(opts.noFlag ?? []).includes(f.name) && !(opts.revisionSafe && f.name === 'revision') && flaggable(f))
    .map((f) => ({ flag: flagName(f.name, opts.flagNames), field: f.name, in: where, input: f }));
}

/** A handler bound to its command's data: the module the registry loads. */
function bound<Extra>(handler: OperationHandler<Extra>, data: OperationCommandData): TypedModule<OperationInput<Extra>> {
  const { describeTarget } = handler;
  return {
    run: (ctx, input, spec) => handler.run(ctx, input, data, spec),
    ...(describeTarget ? { describeTarget: (ctx, input, spec) => describeTarget(ctx, input, data, spec) } : {}),
  };
}

/** An operation command's spec, with the data its handler is bound to. */
export type OperationCommandSpec = CommandSpec & { data: OperationCommandData };

export function operationCommand<const Extra extends readonly OptionSpec[] = []>(opts: OperationCommandOptions<Extra>): OperationCommandSpec {
  const op = operation(opts.operationId);
  const io = inputsOf(op.id);
  const args: ParamArg[] = pathParams(op.path).map((param) => ({
    name: opts.argNames?.[param] ?? DEFAULT_ARG_NAMES[param] ?? kebab(param),
    param,
    input: io.params.find((f) => f.name === param) ?? { name: param, type: 'string', required: true },
  }));
  const flags = [...fieldFlags(io.query, 'query', opts), ...fieldFlags(io.body?.fields ?? [], 'body', opts)];

  let alternate: OperationCommandData['alternate'];
  if (opts.alternate) {
    const altIo = inputsOf(opts.alternate.operationId);
    const altFlags = fieldFlags(altIo.query, 'query', opts);
    for (const f of altFlags) if (!flags.some((g) => g.flag === f.flag)) flags.push(f);
    alternate = { ...opts.alternate, flags: altFlags.map((f) => f.flag) };
  }

  const options: OptionSpec[] = [];
  if (opts.alternate) options.push({ flags: `--${opts.alternate.flag} <advertiserId>`, description: opts.alternate.description });
  options.push(...flags.map(fieldOption));
  if (op.kind === 'list') {
    options.push(
      {
        flags: '--limit <n>',
        description: `rows per page, ${LIMIT_MIN}-${LIMIT_MAX} (service default ${LIMIT_DEFAULT}); with --all, the page size`,
        type: 'int',
      },
      { flags: '--cursor <cursor>', description: 'resume from the `next cursor:` an earlier run printed on stderr' },
      { flags: '--all', description: 'follow nextCursor to the end (json stays one document; ndjson streams)' },
      { flags: '--max <n>', description: 'stop after this many rows in total (prints the next cursor on stderr)', type: 'int' },
    );
  }
  const bodyless = !io.body;
  options.push({
    flags: '-f, --field <key=value>',
    description: bodyless ? 'extra query parameter (repeatable)' : 'extra body field as a string; key.sub=value nests (repeatable)',
    type: 'repeat',
  });
  if (!bodyless) {
    options.push(
      {
        flags: '-F, --json-field <key=value>',
        description: "extra body field whose value is JSON (a number, true, null, [..], {..}) or @file for a file's text (repeatable)",
        type: 'repeat',
      },
      { flags: '--input <file>', description: 'request body as JSON from a file, or - for stdin; flags and fields override its keys' },
    );
  }
  if (opts.watch) {
    options.push(
      { flags: '--wait', description: 'poll until it is no longer running (exit 8 on timeout, 9 if it failed)' },
      { flags: '--timeout <seconds>', description: 'how long --wait waits (default 300)', type: 'number' },
      { flags: '--interval <seconds>', description: INTERVAL_HELP, type: 'number' },
    );
  }
  if (opts.revisionSafe) options.push(...REVISION_OPTIONS);
  options.push(...(opts.extraOptions ?? []));

  const data: OperationCommandData = {
    operationId: op.id,
    args,
    flags,
    ...(alternate ? { alternate } : {}),
    resource: opts.resource,
    watch: opts.watch === true,
  };
  const argSpecs: ArgSpec[] = args.map((a) => ({ name: a.name, description: a.input.description?.replace(/\.$/, '') ?? a.param, required: true }));
  return {
    path: opts.path,
    description: opts.description ?? op.summary,
    args: argSpecs,
    options,
    ...(opts.examples ? { examples: opts.examples } : {}),
    ...(opts.notes ? { notes: opts.notes } : {}),
    operationId: op.id,
    ...(opts.alternate ? { alternates: [{ operationId: opts.alternate.operationId, when: `--${opts.alternate.flag}` }] } : {}),
    ...(op.kind === 'delete' ? { destructive: true } : {}),
    ...(opts.watch || opts.exits ? { exits: [...new Set([...(opts.watch ? [EXIT.waitTimeout, EXIT.operationFailed] : []), ...(opts.exits ?? [])])] } : {}),
    ...(opts.hidden ? { hidden: true } : {}),
    load: async () => bound(await (opts.load ?? (opts.revisionSafe ? () => import('./edit.js') : () => import('../operation.js')))(), data),
    data,
  };
}

/**
 * `… edit`: the same row as a revision-safe update, opened in $VISUAL/$EDITOR on
 * a terminal and saved the same way (src/commands/_shared/edit.ts runEdit).
 */
export function editCommand(update: OperationCommandSpec, o: { path: readonly string[]; description: string; examples: readonly string[] }): CommandSpec {
  return {
    ...update,
    ...o,
    options: [FORCE_OPTION],
    notes:
      'Opens $VISUAL or $EDITOR (else vi) on "field: value" lines, with prose fields as "=== field ===" markdown blocks; closing it unchanged sends nothing. A terminal only: elsewhere it is a usage error (use update). If someone else changed a field you changed while the editor was open: both values on stderr, exit 5, your text kept in a file (--force writes yours).',
    load: async () => bound({ run: (await import('./edit.js')).runEdit }, update.data),
  };
}

// The plain operation commands, built from the operation table: every operation
// whose module entry has a `cli` gets its command here, with no registration of
// its own (src/commands/index.ts adds them group by group). Hand-written commands
// and flows (upload, sync, apply, edit, drift, start, …) stay in the group files
// and name typed operation ids.

const built = new Map<OperationId, OperationCommandSpec>();

/** The command of one operation of the table (an `edit` is built on its update's). */
export function tableCommand(id: OperationId): OperationCommandSpec {
  let spec = built.get(id);
  if (!spec) {
    spec = operationCommand({ operationId: id, ...cliOf(id) });
    built.set(id, spec);
  }
  return spec;
}

/** The plain operation commands of a top-level group (`skills`), in the table's order. */
export function tableCommands(group: string): OperationCommandSpec[] {
  return OPERATIONS.filter((op) => op.cli?.path[0] === group).map((op) => tableCommand(op.id));
}

/** Every plain operation command, in the table's order. */
export function allTableCommands(): OperationCommandSpec[] {
  return OPERATIONS.filter((op) => op.cli).map((op) => tableCommand(op.id));
}
