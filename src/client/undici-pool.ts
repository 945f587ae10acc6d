// undici's Pool and nothing else, loaded on a command's first request.
// undici's index pulls in fetch, WebSocket, caches and more: ~1.5x the start-up
// cost of the Pool alone, bundled or not (measured for issue #4), and esbuild
// cannot tree-shake CommonJS. So we import the three files we need (undici has
// no "exports" map; test/unit/client/http.test.ts fails if an upgrade moves
// them); the build bundles them into one lazily loaded chunk.
// Like undici's index, we add the request API (request, stream, ...) to the
// Dispatcher prototype; Object.assign is idempotent if the index loads too.
import { setFlagsFromString } from 'node:v8';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import Pool from 'undici/lib/dispatcher/pool.js';

// undici parses HTTP with llhttp compiled to wasm. V8 tiers wasm up to
// TurboFan on background threads and process exit waits for them: ~80 ms (and
// ~200 ms for a stored read, measured for issue #4) added to every command here.
// Liftoff's code is plenty for a CLI's traffic. It must be set before undici
// compiles the module (on the first connection), so here is early enough.
setFlagsFromString('--liftoff-only');
Object.assign(Dispatcher.prototype, api);

export { Pool };
