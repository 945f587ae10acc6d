// Accepted media types of Assets and their size limits (the spec leaves both
// open; docs/decisions.md records the choice). The limits are
// written onto each upload row when it is reserved, so the storage endpoint can
// enforce them while streaming without knowing what the upload is for.

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Media type → largest accepted file, in bytes. */
export type MediaLimits = Readonly<Record<string, number>>;

export const DEFAULT_ASSET_LIMITS: MediaLimits = {
  'image/jpeg': 30 * MiB,
  'image/png': 30 * MiB,
  'image/gif': 30 * MiB,
  'image/webp': 30 * MiB,
  'video/mp4': 4 * GiB,
  'video/quicktime': 4 * GiB,
  'video/webm': 4 * GiB,
};

export const ASSET_MEDIA_TYPES = Object.keys(DEFAULT_ASSET_LIMITS) as readonly string[];

/**
 * Services key a test world (or `sandbox serve`) may set to override limits, e.g.
 * `{ 'image/png': 1024 }`; unnamed types keep their defaults.
 */
export const ASSET_LIMITS_SERVICE_KEY = 'assetLimits';

/** `defaults`, with the override set on services under `key` (Assets and Brand Documents each have one). */
export function limitsFrom(services: Record<string, unknown>, key: string, defaults: MediaLimits): MediaLimits {
  const override = services[key];
  if (!override || typeof override !== 'object') return defaults;
  return { ...defaults, ...(override as MediaLimits) };
}

export const assetLimits = (services: Record<string, unknown>) => limitsFrom(services, ASSET_LIMITS_SERVICE_KEY, DEFAULT_ASSET_LIMITS);

/** `image/PNG; charset=x` → `image/png`: parameters and case never change the type. */
export function essenceOf(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  return essence.length > 0 ? essence : null;
}

/** The cap while streaming: the sent type's limit, else the largest (the type is judged at finalize). */
export function streamingCap(limits: MediaLimits, contentType: string | null): number {
  const essence = essenceOf(contentType);
  const own = essence === null ? undefined : limits[essence];
  return own ?? Math.max(0, ...Object.values(limits));
}
