// The generic "operation command": from an operation id and a small spec
// (positional args -> path params, flags -> query or body fields) build a
// CommandSpec whose handler is the shared src/commands/operation.ts. Every one
// of the 64 operations can become a subcommand this way; per-command files
// only hold such specs. Plain data: imported on the help fast path.
import { operation, pathParams } from '../contract/operations.js';
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN } from '../contract/ids.js';
import type { ArgSpec, CommandSpec, OptionSpec } from './registry.js';

/** A flag that becomes one query or body field. */
export interface FieldFlag {
  /** Flag name without dashes, e.g. 'advertiser'. */
  flag: string;
  /** Wire name, e.g. 'advertiserId'. */
  field: string;
  description: string;
  valueName?: string;
  choices?: readonly string[];
  /** 'list' joins comma-separated values; 'int'/'number' send numbers in a body. */
  type?: 'string' | 'int' | 'number' | 'list' | 'boolean';
}

export interface OperationCommandSpec {
  path: readonly string[];
  operationId: string;
  description?: string;
  examples?: readonly string[];
  /** Positional arguments, each filling one path parameter, in order. */
  args?: ReadonlyArray<{ name: string; param: string; description: string }>;
  query?: readonly FieldFlag[];
  body?: readonly FieldFlag[];
  /**
   * A flag that switches to another operation whose path names the advertiser
   * (stored vs live reads): `--live acc_1` -> listLiveCampaigns with advertiserId=acc_1.
   * `queryFlags` lists the flags that operation also accepts; others are refused.
   */
  alternate?: { flag: string; operationId: string; param: string; description: string; queryFlags: readonly string[] };
  /** Resource name for table columns and --fields checks (src/cli/output/resources.ts). */
  resource: string;
  /** Adds --wait/--timeout/--interval: poll the result until it is no longer running. */
  watch?: boolean;
}

const valueFlag = (f: FieldFlag): OptionSpec => ({
  flags: f.type === 'boolean' ? `--${f.flag}` : `--${f.flag} <${f.valueName ?? 'value'}>`,
  description: f.description,
  ...(f.choices ? { choices: f.choices } : {}),
  ...(f.type === 'int' ? { type: 'int' as const } : f.type === 'number' ? { type: 'number' as const } : {}),
});

export function operationCommand(spec: OperationCommandSpec): CommandSpec {
  const op = operation(spec.operationId);
  const params = pathParams(op.path);
  const covered = (spec.args ?? []).map((a) => a.param);
  const missing = params.filter((p) => !covered.includes(p));
  if (missing.length) throw new Error(`${spec.path.join(' ')}: path params without an argument: ${missing.join(', ')}`);

  const args: ArgSpec[] = (spec.args ?? []).map((a) => ({ name: a.name, description: a.description, required: true }));
  const options: OptionSpec[] = [];
  if (spec.alternate) options.push({ flags: `--${spec.alternate.flag} <advertiserId>`, description: spec.alternate.description });
  for (const f of spec.query ?? []) options.push(valueFlag(f));
  for (const f of spec.body ?? []) options.push(valueFlag(f));
  if (op.kind === 'list') {
    options.push(
      { flags: '--limit <n>', description: `rows per page, ${LIMIT_MIN}-${LIMIT_MAX} (service default ${LIMIT_DEFAULT}); with --all, the page size`, type: 'int' },
      { flags: '--cursor <cursor>', description: 'resume from a nextCursor printed by an earlier run' },
      { flags: '--all', description: 'follow nextCursor to the end (json stays one document; ndjson streams)' },
      { flags: '--max <n>', description: 'stop after this many rows in total (prints the next cursor on stderr)', type: 'int' },
    );
  }
  const bodyless = op.method === 'GET' || op.method === 'DELETE';
  options.push({
    flags: '-f, --field <key=value>',
    description: bodyless ? 'extra query parameter (repeatable)' : 'extra body field as a string; key.sub=value nests (repeatable)',
    type: 'repeat',
  });
  if (!bodyless) {
    options.push(
      { flags: '-F, --json-field <key=value>', description: 'extra body field whose value is JSON: a number, true, null, [..], {..} (repeatable)', type: 'repeat' },
      { flags: '--input <file>', description: 'request body as JSON from a file, or - for stdin; flags and fields override its keys' },
    );
  }
  if (spec.watch) {
    options.push(
      { flags: '--wait', description: 'poll until it is no longer running (exit 8 on timeout, 9 if it failed)' },
      { flags: '--timeout <seconds>', description: 'how long --wait waits (default 300)', type: 'number' },
      { flags: '--interval <seconds>', description: 'time between polls with --wait (default 2)', type: 'number' },
    );
  }
  return {
    path: spec.path,
    description: spec.description ?? op.summary,
    args,
    options,
    ...(spec.examples ? { examples: spec.examples } : {}),
    operationId: op.id,
    ...(op.kind === 'delete' ? { destructive: true } : {}),
    load: () => import('../commands/operation.js'),
    data: spec,
  };
}
