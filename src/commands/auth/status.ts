// adops auth status: which profile, base URL, organization and key (masked)
// this run would use, where each comes from, and which env vars override.
import { maskKey } from '../../client/redact.js';
import type { CommandContext } from '../../cli/context.js';
import { EXIT } from '../../cli/exit-codes.js';
import { cellText } from '../../cli/output/sanitize.js';
import { prepareOutput, writeObject } from '../../cli/output/writers.js';
import { drawsForTerminal } from '../../cli/output/writers/formats.js';
import type { CommandInput } from '../../cli/registry.js';

export async function run(ctx: CommandContext, input?: CommandInput<{ all?: boolean }>): Promise<number> {
  if (input?.opts.all === true) return (await import('./status-all.js')).runAll(ctx);
  const a = ctx.auth();
  const status = {
    profile: a.profile,
    profileSource: a.profileSource,
    baseUrl: a.baseUrl,
    baseUrlSource: a.baseUrlSource,
    organization: a.organization ?? null,
    loggedIn: a.apiKey !== undefined,
    key: a.apiKey ? maskKey(a.apiKey) : null,
    keySource: a.apiKeySource,
    keyStoredIn: a.apiKeySource === 'env' ? 'environment variable ADOPS_API_KEY' : a.apiKeySource === 'file' ? ctx.config.file : null,
    envOverrides: a.envOverrides,
  };
  if (drawsForTerminal(ctx.output.format)) {
    const lines = [
      `Profile:      ${status.profile} (from ${status.profileSource})`,
      `Base URL:     ${status.baseUrl} (from ${status.baseUrlSource})`,
      `Organization: ${status.organization ?? `(not known${a.apiKeySource === 'env' ? ' for the key from ADOPS_API_KEY' : ''}: the service does not say)`}`,
      `Key:          ${status.key ?? '(none: run `adops auth login`)'}`,
      ...(status.keyStoredIn ? [`Stored in:    ${status.keyStoredIn}`] : []),
      ...a.envOverrides.map((v) => `Note:         ${v} is set and overrides the stored login`),
    ];
    ctx.io.stdout.write(lines.map(cellText).join('\n') + '\n');
  } else await writeObject(status, await prepareOutput(ctx, 'generic'));
  return status.loggedIn ? EXIT.ok : EXIT.auth;
}
