// The four simulated providers by token.
import { ENTITY_PROVIDERS } from '../../contract/ids.js';
import type { EntityProvider } from '../../contract/ids.js';
import { providerA } from './provider-a.js';
import { providerB } from './provider-b.js';
import { providerC } from './provider-c.js';
import { providerD } from './provider-d.js';
import { isOneOf } from './types.js';
import type { ProviderAdapter } from './types.js';

export const PROVIDERS: Record<EntityProvider, ProviderAdapter> = {
  provider_a: providerA,
  provider_b: providerB,
  provider_c: providerC,
  provider_d: providerD,
};

export function adapterFor(provider: string): ProviderAdapter {
  if (!isOneOf(ENTITY_PROVIDERS, provider)) throw new Error(`no simulated provider ${provider}`);
  return PROVIDERS[provider];
}
