// The arguments of a flow tool, read and checked before any command runs (the
// server may pass them unchecked against the input schema). A value is never
// read as a flag: flow tools pass values as `--flag=value` and positionals
// after `--` (argv.ts), and these readers refuse what the schema refuses.
import { EXIT } from '../../cli/exit-codes.js';
import type { ToolOutcome } from '../tool-def.js';

/** An argument the tool cannot use: the tool's error, with the CLI's usage code (2). */
export class ArgError extends Error {}

/** The outcome of a bad argument, worded as the CLI's usage errors are. */
export function argFailure(err: ArgError): ToolOutcome {
  return { ok: false, code: EXIT.usage, error: { code: 'usage_error', status: null, message: err.message, exitCode: EXIT.usage } };
}

/** Run `body` with the arguments read; an ArgError becomes the usage outcome. */
export async function withArgs(body: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof ArgError) return argFailure(err);
    throw err;
  }
}

type Args = Record<string, unknown>;

/** A string argument; `pattern` refuses anything else (ids, slugs, dates). */
export function str(args: Args, name: string, pattern?: RegExp): string | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v === '') throw new ArgError(`${name}: expected a non-empty string`);
  if (pattern && !pattern.test(v)) throw new ArgError(`${name} "${v.slice(0, 80)}": not of the form ${pattern.source}`);
  return v;
}

export function required(args: Args, name: string, pattern?: RegExp): string {
  const v = str(args, name, pattern);
  if (v === undefined) throw new ArgError(`${name} is required`);
  return v;
}

export function strings(args: Args, name: string, pattern?: RegExp): string[] {
  const v = args[name];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ArgError(`${name}: expected an array of strings`);
  return v.map((item: unknown) => required({ [name]: item }, name, pattern));
}

export function bool(args: Args, name: string): boolean {
  const v = args[name];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new ArgError(`${name}: expected true or false`);
  return v;
}

export function num(args: Args, name: string, min: number, max: number): number | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) throw new ArgError(`${name}: expected a number from ${min} to ${max}`);
  return v;
}

/** `--flag=value` for each value given (an option the CLI repeats or lists). */
export const flag = (name: string, value: string | number | undefined): string[] => (value === undefined ? [] : [`--${name}=${value}`]);

/** Advertiser ids (acc_…), plan slugs, Line Item ids, calendar dates: what the commands take. */
export const ADVERTISER = /^acc_[A-Za-z0-9_-]+$/;
export const SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
export const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
