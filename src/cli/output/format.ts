// Choosing the output format and checking --fields, once for every command.
import { UsageError } from '../errors.js';

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

// --fields lives in fields.ts (dotted paths, schema plus data); re-exported for existing importers.
export { checkFields, checkFieldsInData, pick } from './fields.js';
