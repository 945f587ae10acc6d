// The four simulated providers by token.
import type { EntityProvider } from '../../contract/ids.js';
import { providerA } from './provider-a.js';
import { providerB } from './provider-b.js';
import { providerC } from './provider-c.js';
import { providerD } from './provider-d.js';
import type { ProviderAdapter } from './types.js';

export const PROVIDERS: Record<EntityProvider, ProviderAdapter> = {
  provider_a: providerA,
  provider_b: providerB,
  provider_c: providerC,
  provider_d: providerD,
};

export function adapterFor(provider: string): ProviderAdapter {
  const adapter = (PROVIDERS as Record<string, ProviderAdapter>)[provider];
  if (!adapter) throw new Error(`no simulated provider ${provider}`);
  return adapter;
}
