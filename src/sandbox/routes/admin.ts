// Sandbox-only controls under /_sandbox/ (not part of the service interface,
// not in the OpenAPI documents, never used by the CLI). No key needed: the
// sandbox listens on loopback and these exist for tests and demos.
import type { Hono } from 'hono';
import type { AppEnv } from '../http/context.js';
import { listKeys } from '../models/api-keys.js';
import { invalidRequest } from '../models/errors.js';
import { notJsonIssue, readBodyText } from '../http/json-body.js';
import { ingestAll } from '../ingest/index.js';
import { setProviderFaults, simulatedProvider } from '../providers/faults.js';

export function registerAdminRoutes(app: Hono<AppEnv>): void {
  app.get('/_sandbox/health', (c) => c.json({ status: 'ok', time: c.get('sandbox').clock.now() }, 200));

  app.get('/_sandbox/keys', (c) => c.json({ data: listKeys(c.get('sandbox').db) }, 200));

  app.post('/_sandbox/ingest', (c) => {
    const started = c.get('sandbox').clock.now();
    ingestAll(c.get('sandbox'));
    return c.json({ ingested: true, at: started }, 200);
  });

  app.put('/_sandbox/faults/:provider', async (c) => {
    // The provider is checked before the body is read: an unknown one is 404 whatever was sent.
    const provider = simulatedProvider(c.req.param('provider'));
    // Read within the sandbox's body limits (413 past the cap), then parsed.
    const text = await readBodyText(c);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw invalidRequest([notJsonIssue], 'The body is not valid JSON.');
    }
    const faults = setProviderFaults(c.get('sandbox'), provider, body);
    return c.json({ provider, faults }, 200);
  });
}
