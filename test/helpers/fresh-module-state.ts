// Setup file of the e2e project (vitest.config.ts): its files share one module graph per worker, so what the
// CLI's modules remember for the life of a process is reset here, before each file, as a new process would
// start: the secrets redaction masks (a key remembered by one file would be masked in the next file's output).
import { forgetSecrets } from '../../src/client/redact.js';

forgetSecrets();
