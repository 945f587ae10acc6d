// The other writer of `adops demo`'s revision-safe edit: it reads the brand
// and sets its voice at that revision, through the client's one transport
// like any command (no socket of its own: issue 25). The relay that lets it in
// between the child's read and write is the sandbox's (src/sandbox/demo/race-relay.ts).
import type { CommandContext } from '../../cli/context.js';

/** Set `voice` on the brand `slug` at its current revision, with the demo's key; the brand's new revision. */
export async function otherWriterSetsVoice(ctx: CommandContext, baseUrl: string, key: string, slug: string, voice: string): Promise<number> {
  const client = await ctx.makeClient({ baseUrl, apiKey: key });
  const row = await client.call('getBrand', { params: { slug } });
  const saved = await client.call('updateBrand', { params: { slug }, body: { voice, revision: row.revision } });
  return saved.revision;
}
