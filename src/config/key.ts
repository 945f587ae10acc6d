// One rule for every way a key arrives (env, config file, login prompt or
// stdin): surrounding whitespace is dropped (`export ADOPS_API_KEY=$(cat
// key.txt)` from a CRLF file keeps the \r), and a key with a control or space
// character inside is refused here with a sentence, not later as a "network
// failure" when the HTTP layer rejects the header, retried four times.
import { ConfigError } from './errors.js';

export class InvalidApiKeyError extends ConfigError {
  override readonly name = 'InvalidApiKeyError';
  constructor(where: string) {
    super(
      `the API key from ${where} holds a character a key cannot have (a control character, a space or a non-ASCII letter)`,
      'auth',
      'copy the key again without line breaks or spaces (keys are a single word starting with acr_)',
      'invalid_api_key',
    );
  }
}

/** The key trimmed, undefined when empty; throws InvalidApiKeyError when unusable in a header. */
export function normalizeApiKey(raw: string | undefined, where: string): string | undefined {
  if (raw === undefined) return undefined;
  const key = raw.trim();
  if (key === '') return undefined;
  // Visible ASCII only: anything else cannot travel in an Authorization header as is.
  if (!/^[\x21-\x7e]+$/.test(key)) throw new InvalidApiKeyError(where);
  return key;
}
