// Choosing the output format and checking --fields, once for every command.
import { UsageError } from '../errors.js';
import { resourceView } from './resources.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv'];

export function chooseFormat(input: { output?: string | undefined; json?: boolean | undefined; configured?: string | undefined; stdoutIsTTY: boolean }): OutputFormat {
  const asked = input.json ? 'json' : input.output ?? input.configured;
  if (asked !== undefined) {
    if (!(OUTPUT_FORMATS as readonly string[]).includes(asked)) {
      throw new UsageError(`unknown output format "${asked}"`, `use one of: ${OUTPUT_FORMATS.join(', ')}`);
    }
    return asked as OutputFormat;
  }
  return input.stdoutIsTTY ? 'table' : 'json';
}

/** `--fields a,b` checked against the resource's known fields, with the list in the error. */
export function checkFields(fields: readonly string[] | undefined, resource: string): string[] | undefined {
  if (!fields || fields.length === 0) return undefined;
  const known = resourceView(resource).fields;
  if (known) {
    const unknown = fields.filter((f) => !known.includes(f));
    if (unknown.length) {
      throw new UsageError(
        `unknown field${unknown.length > 1 ? 's' : ''} for ${resource}: ${unknown.join(', ')}`,
        `known fields: ${known.join(', ')}`,
      );
    }
  }
  return [...fields];
}

/** Pick fields in order; missing ones become null so every row has the same keys. */
export function pick(row: Record<string, unknown>, fields: readonly string[] | undefined): Record<string, unknown> {
  if (!fields) return row;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = row[f] ?? null;
  return out;
}
