// Per-provider faults and rate limits of the simulated providers. Every live
// request and every provider change goes through `callProvider`, which counts
// the call, adds the configured latency, answers the provider's throttling
// error once the per-minute limit is used up (each call counts, refused or
// not, as at the platforms), and refuses a seeded share of calls with the
// provider's own error object. The seeded draw makes an error rate replay the
// same way in tests. Configuration lives in SQLite (survives restarts); the
// call counters live in memory, in the sandbox's ProviderCallLog.
import { ENTITY_PROVIDERS } from '../../contract/ids.js';
import type { EntityProvider } from '../../contract/ids.js';
import { domainError, invalidRequest, ServiceError } from '../models/errors.js';
import { zodIssuesToIssues } from '../models/issues.js';
import { providerFaultsSchema } from './fixture-schema.js';
import type { ProviderFaults } from './fixture-schema.js';
import { adapterFor } from './registry.js';
import { seededRandom } from './call-log.js';
import { isOneOf } from './types.js';
import type { ProviderServices } from './types.js';

const NO_FAULTS: ProviderFaults = { errorRate: 0, latencyMs: 0, rateLimitPerMinute: null, seed: 1 };
const WINDOW_MS = 60_000;

export function readFaults(services: ProviderServices, provider: string): ProviderFaults {
  const row = services.db
    .prepare<[string], { error_rate: number; latency_ms: number; rate_limit_per_minute: number | null; seed: number }>(
      'SELECT error_rate, latency_ms, rate_limit_per_minute, seed FROM provider_faults WHERE provider = ?',
    )
    .get(provider);
  return row ? { errorRate: row.error_rate, latencyMs: row.latency_ms, rateLimitPerMinute: row.rate_limit_per_minute, seed: row.seed } : NO_FAULTS;
}

/** Store a provider's faults and restart its error draw and rate window (calls stay counted). */
export function writeFaults(services: ProviderServices, provider: EntityProvider, faults: ProviderFaults): void {
  services.db
    .prepare(
      `INSERT INTO provider_faults (provider, error_rate, latency_ms, rate_limit_per_minute, seed) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (provider) DO UPDATE SET error_rate = excluded.error_rate, latency_ms = excluded.latency_ms,
         rate_limit_per_minute = excluded.rate_limit_per_minute, seed = excluded.seed`,
    )
    .run(provider, faults.errorRate, faults.latencyMs, faults.rateLimitPerMinute, faults.seed);
  const s = services.providerCalls.state(provider, faults.seed);
  s.rng = seededRandom(faults.seed);
  s.recent = [];
}

/** The provider token if a simulated provider has it, else 404 not_found. */
export function simulatedProvider(provider: string): EntityProvider {
  if (!isOneOf(ENTITY_PROVIDERS, provider)) throw domainError('not_found', `No simulated provider is named that; use one of ${ENTITY_PROVIDERS.join(', ')}.`);
  return provider;
}

/** PUT /_sandbox/faults/{provider}: an unknown provider answers 404 not_found, a bad body 400 invalid_request. Returns what was stored. */
export function setProviderFaults(services: ProviderServices, provider: string, faults: unknown): ProviderFaults {
  const known = simulatedProvider(provider);
  const parsed = providerFaultsSchema.safeParse(faults);
  if (!parsed.success) throw invalidRequest(zodIssuesToIssues(parsed.error, 'body', faults));
  writeFaults(services, known, parsed.data);
  return parsed.data;
}

/** How many requests the service has sent this provider since the sandbox started. */
export function providerCallCount(services: ProviderServices, provider: EntityProvider): number {
  return services.providerCalls.calls(provider);
}

export type ProviderRefusal = {
  provider: EntityProvider;
  platformError: Record<string, unknown>;
  message: string;
  /** Throttled: whole seconds until the rate window lets a request through again. */
  retryAfterSeconds?: number;
};

/**
 * 502 provider_error for a throttled live read: the service knows when the
 * provider's window reopens, so the answer says it in a Retry-After header
 * (the Observe routes set it; the body stays the spec's).
 */
export class ProviderThrottled extends ServiceError {
  constructor(refusal: ProviderRefusal & { retryAfterSeconds: number }) {
    super('provider_error', refusal.message, { provider: refusal.provider, platformError: refusal.platformError });
    this.retryAfterSeconds = refusal.retryAfterSeconds;
  }
  readonly retryAfterSeconds: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One request to a provider. Resolves null when the provider answers, or with
 * the provider's refusal (its own error object, never the request we sent).
 */
export async function callProvider(services: ProviderServices, provider: EntityProvider): Promise<ProviderRefusal | null> {
  const faults = readFaults(services, provider);
  const s = services.providerCalls.state(provider, faults.seed);
  const now = services.clock.now();
  s.calls += 1;
  s.recent = s.recent.filter((t) => t > now - WINDOW_MS);
  s.recent.push(now);
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  const adapter = adapterFor(provider);
  if (faults.rateLimitPerMinute !== null && s.recent.length > faults.rateLimitPerMinute) {
    // Refused calls count too, so the next one passes once all but limit - 1 of these calls left the window.
    const reopensAt = s.recent[Math.max(0, s.recent.length - faults.rateLimitPerMinute)]! + WINDOW_MS;
    const retryAfterSeconds = Math.max(1, Math.ceil((reopensAt - now) / 1000));
    return {
      provider,
      platformError: adapter.platformError('throttled'),
      retryAfterSeconds,
      message: `${provider} throttled the request: its rate limit is used up. Retry in ${retryAfterSeconds} s.`,
    };
  }
  if (faults.errorRate > 0 && s.rng() < faults.errorRate) {
    return { provider, platformError: adapter.platformError('error'), message: `${provider} refused the request or did not answer. Retry.` };
  }
  return null;
}

/** callProvider for live reads: a refusal becomes 502 provider_error with `provider` and `platformError`. */
export async function askProvider(services: ProviderServices, provider: EntityProvider): Promise<void> {
  const refused = await callProvider(services, provider);
  if (refused?.retryAfterSeconds !== undefined) throw new ProviderThrottled({ ...refused, retryAfterSeconds: refused.retryAfterSeconds });
  if (refused) throw domainError('provider_error', refused.message, { provider, platformError: refused.platformError });
}
