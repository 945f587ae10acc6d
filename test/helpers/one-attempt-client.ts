// An ApiClient for a loopback test server that sends each request once (no resend, no throttling wait) unless a
// test says otherwise: what the flow does with one answer is the test's subject, not the retry policy.
import { ApiClient } from '../../src/client/http.js';

export const oneAttemptClient = (baseUrl: string): ApiClient =>
  new ApiClient({
    baseUrl,
    apiKey: 'acr_t',
    userAgent: 'adops/test',
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 5_000, throttle: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 5_000 } },
  });
