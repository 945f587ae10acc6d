import { decideProxy, ProxySettingError } from '../../client/proxy.js';
import type { CommandContext } from '../../cli/context.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import { CONFIG_KEYS, readValue } from './keys.js';
import { messageOf } from '../../cli/errors.js';

export async function run(ctx: CommandContext): Promise<number> {
  const rows: Array<{ key: string; value: unknown; source: string }> = CONFIG_KEYS.map((key) => ({ key, ...readValue(ctx, key) }));
  const proxy = proxyRow(ctx);
  if (proxy) rows.push(proxy);
  const writer = new ListWriter(await prepareOutput(ctx, 'config'));
  await writer.begin();
  await writer.page(rows);
  await writer.end();
  return 0;
}

/** The proxy the base URL goes through (read-only: it comes from HTTPS_PROXY...), credentials masked; none when no variable is set. */
function proxyRow(ctx: CommandContext): { key: string; value: unknown; source: string } | undefined {
  let decision;
  try {
    decision = decideProxy(new URL(ctx.auth().baseUrl).origin, ctx.env);
  } catch (err) {
    // A base URL that does not parse has its own row; a proxy variable that does not is shown as such.
    if (!(err instanceof ProxySettingError)) return undefined;
    return { key: 'proxy', value: `unusable: ${messageOf(err)}`, source: 'env' };
  }
  if (decision.kind === 'none') return undefined;
  if (decision.kind === 'bypass') return { key: 'proxy', value: null, source: decision.reason };
  return { key: 'proxy', value: decision.route.shown, source: decision.route.variable };
}
