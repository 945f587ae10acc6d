// The registry a one-command bundle (commands/assets/sync-run.ts, commands/mutations/apply-run.ts; #37) runs its argv
// with, or none: the one decision of when such a bundle declines, in one place so the bundles cannot come to differ.
// It declines (nothing read, written or sent; the whole CLI runs the argv) when the entry decision names another
// kind, argv is not what plainParse reads, --query is given (JMESPath is not bundled), the command's own options ask
// for what the bundle lacks, or the format would be a table drawn for a terminal (cli-table3 is not bundled).
import { tableOrUnknown, type BundleEnvironment } from './one-command-bundle.js';
import { plainParse } from './program.js';
import { Registry, type CommandSpec } from './registry.js';
import { route, type Route } from './route.js';
import { TOP_LEVEL } from './top-level.js';

export interface OneCommand {
  /** The entry decision's kind this bundle was built for. */
  kind: Route['kind'];
  /** `group command`: the command's path. */
  group: string;
  command: string;
  /** The group's commands (the bundle keeps the one it runs). */
  commands: readonly CommandSpec[];
  /** Options this bundle cannot run (the whole CLI runs them). */
  declines?: (opts: Readonly<Record<string, unknown>>) => boolean;
}

/** The registry to run this argv with, or undefined (nothing read, written or sent) when the whole CLI must run it. */
export function oneCommandRegistry(one: OneCommand, argv: readonly string[], envIn: BundleEnvironment): Registry | undefined {
  // Asked again (the launcher did): a bundle never runs what it was not built for (its stubs would throw).
  if (route(argv, envIn.env, () => envIn.stderr.isTTY === true).kind !== one.kind) return undefined;
  const registry = new Registry(
    TOP_LEVEL.filter((t) => t.name === one.group).map((t) => ({ path: [t.name], description: t.description })),
    one.commands.filter((c) => c.path[1] === one.command),
  );
  const parsed = plainParse(registry, argv);
  if (!parsed || parsed.spec.path[1] !== one.command || parsed.input.opts.query !== undefined) return undefined;
  if (one.declines?.(parsed.input.opts)) return undefined;
  if (tableOrUnknown(parsed.input.opts, envIn)) return undefined;
  return registry;
}
