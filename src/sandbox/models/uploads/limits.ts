// Accepted media types of Assets and their size limits (the spec leaves both
// open; docs/decisions.md records the choice). The limits are
// written onto each upload row when it is reserved, so the storage endpoint can
// enforce them while streaming without knowing what the upload is for.

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Media type → largest accepted file, in bytes. */
export type MediaLimits = Readonly<Record<string, number>>;

/** Limits stored as JSON (an upload's reservation): the byte limit of each media type it names. */
export function parseLimits(json: string): MediaLimits {
  const parsed: unknown = JSON.parse(json);
  const limits: Record<string, number> = {};
  if (parsed !== null && typeof parsed === 'object') {
    for (const [type, bytes] of Object.entries(parsed)) if (typeof bytes === 'number') limits[type] = bytes;
  }
  return limits;
}

export const DEFAULT_ASSET_LIMITS: MediaLimits = {
  'image/jpeg': 30 * MiB,
  'image/png': 30 * MiB,
  'image/gif': 30 * MiB,
  'image/webp': 30 * MiB,
  'video/mp4': 4 * GiB,
  'video/quicktime': 4 * GiB,
  'video/webm': 4 * GiB,
};

export const ASSET_MEDIA_TYPES: readonly string[] = Object.keys(DEFAULT_ASSET_LIMITS);

/** `defaults` with an override merged over them (e.g. `{ 'image/png': 1024 }`; unnamed types keep their defaults). */
export function limitsFrom(override: MediaLimits | undefined, defaults: MediaLimits): MediaLimits {
  return override ? { ...defaults, ...override } : defaults;
}

/** The Asset limits of a sandbox: the defaults, with its `settings.assetLimits` over them. */
export const assetLimits = (settings: { assetLimits?: MediaLimits }) => limitsFrom(settings.assetLimits, DEFAULT_ASSET_LIMITS);

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
