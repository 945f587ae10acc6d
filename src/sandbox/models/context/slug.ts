// The slug rule (the spec leaves it open; docs/decisions.md): 1–64
// characters of lowercase ASCII letters and digits in groups joined by single
// hyphens, so a slug is safe in a URL path and a file name and reads the same
// everywhere. Breaking the rule is content the service refuses: 422 invalid_slug.
import { domainError } from '../errors.js';

export const SLUG_MAX = 64;
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function isSlug(value: string): boolean {
  return value.length >= 1 && value.length <= SLUG_MAX && SLUG_PATTERN.test(value);
}

export function assertSlug(value: string, field = 'slug'): string {
  if (!isSlug(value)) {
    throw domainError('invalid_slug', `The ${field} must be 1–${SLUG_MAX} lowercase letters, digits and single hyphens, not starting or ending with a hyphen.`);
  }
  return value;
}

export const slugConflict = (slug: string, what: string) => domainError('slug_conflict', `Another ${what} already has this slug.`, { slug });

/** True when a better-sqlite3 error is a UNIQUE violation (two creates racing past the pre-check). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'SQLITE_CONSTRAINT_UNIQUE';
}
