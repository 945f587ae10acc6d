// Small helpers the Context models share. (Their calling convention, the
// Scope, is the one of every model: ../scope.ts.)
import { randomBytes } from 'node:crypto';

/** Service-minted ids: a short type prefix and 12 random bytes, base32-ish lowercase. */
export function mintId(prefix: 'doc' | 'li' | 'exe'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** JSON text columns holding string lists. */
export const toJsonList = (v: readonly string[] | undefined) => JSON.stringify(v ?? []);
export function fromJsonList(v: string): string[] {
  const parsed: unknown = JSON.parse(v);
  return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : [];
}
