// Choosing the output format and checking --fields, once for every command.
// The formats themselves are listed in writers/formats.ts.
import { UsageError } from '../errors.js';
import { dumbTerminal } from '../terminal.js';
import { defaultFormat, isOutputFormat, OUTPUT_FORMATS, type OutputFormat } from './writers/formats.js';

export { OUTPUT_FORMATS, type OutputFormat };

export function chooseFormat(input: {
  output?: string | undefined;
  json?: boolean | undefined;
  configured?: string | undefined;
  stdoutIsTTY: boolean;
}): OutputFormat {
  const asked = input.json ? 'json' : (input.output ?? input.configured);
  if (asked !== undefined) {
    if (!isOutputFormat(asked)) {
      throw new UsageError(`unknown output format "${asked}"`, `use one of: ${OUTPUT_FORMATS.join(', ')}`);
    }
    return asked;
  }
  return defaultFormat(input.stdoutIsTTY ? 'terminal' : 'pipe');
}

// --fields lives in fields.ts (dotted paths, schema plus data); re-exported for existing importers.
export { checkFields, checkFieldsInData, pick } from './fields.js';

/**
 * Colour on stdout, as gh and most CLIs decide it (https://no-color.org,
 * https://bixense.com/clicolors, Node's FORCE_COLOR): --no-color and NO_COLOR
 * win over everything; then CLICOLOR_FORCE (not 0) or FORCE_COLOR (not 0 or
 * false) force colour even into a pipe, in CI or on a pty; FORCE_COLOR=0,
 * CLICOLOR=0 and TERM=dumb (a terminal that reads no escape sequence) turn it
 * off; otherwise colour only on a terminal outside CI. Everything coloured
 * (tables, charts, the spinner on stderr) asks here.
 */
export function chooseColor(input: { env: Record<string, string | undefined>; stdoutIsTTY: boolean; ci: boolean; flag?: boolean | undefined }): boolean {
  const { env } = input;
  if (input.flag === false || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && /^(0|false)$/i.test(force)) return false;
  if (force !== undefined || (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '' && env.CLICOLOR_FORCE !== '0')) return true;
  if (env.CLICOLOR === '0' || dumbTerminal(env)) return false;
  return input.stdoutIsTTY && !input.ci;
}
