// adops brands documents upload BRAND FILE…: the upload flow for a Brand's
// Documents (reserve with the type the bytes really are, PUT, finalize), one
// row per file; failures explained per file. Shared wiring: assets/upload.ts.
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { prepareOutput } from '../../cli/output/writers.js';
import type { CommandInput } from '../../cli/registry.js';
import { documentTarget } from '../../flows/upload-targets.js';
import {
  againCommand,
  concurrencyOf,
  filesFrom,
  idleTimeoutOf,
  noteSkipped,
  reportFailures,
  runUploads,
  writeRows,
  type UploadFlags,
} from '../assets/upload.js';

export async function run(ctx: CommandContext, input: CommandInput<UploadFlags, { brand: string; files: string[] | undefined }>): Promise<number> {
  const o = input.opts;
  const { brand } = input.args;
  if (!brand) throw new UsageError('name the Brand (its slug) first: adops brands documents upload BRAND FILE…');
  const inputs = input.args.files ?? [];
  const concurrency = concurrencyOf(o.concurrency);
  const idleTimeoutSeconds = idleTimeoutOf(o.idleTimeout);
  const { files, skipped } = await filesFrom(inputs);
  noteSkipped(ctx, skipped);
  await prepareOutput(ctx, 'document'); // --fields and --query checked before anything is sent
  const client = await ctx.client();
  // A Brand that does not exist fails once here (exit 4), not once per file.
  await client.call('getBrand', { params: { slug: brand } }, { signal: ctx.signal });
  const target = documentTarget(client, brand);
  const outcomes = await runUploads(ctx, { target, files, concurrency, timeoutSeconds: o.timeout, idleTimeoutSeconds });
  await writeRows(
    ctx,
    outcomes.flatMap((x) => (x.row ? [x.row] : [])),
    'document',
  );
  return reportFailures(ctx, outcomes, target, againCommand(['brands', 'documents', 'upload', brand], inputs));
}
