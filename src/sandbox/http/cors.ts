// Spec (Authentication 2): a browser request from any origin other than the
// service console is refused. Requests without Origin (server code, the CLI)
// are untouched. The console origin gets ordinary CORS headers, preflight included.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { DEFAULT_CONSOLE_ORIGIN } from '../services.js';
import { fail } from './errors.js';
import { requestHeader } from './headers.js';

const ALLOW_METHODS = 'GET, POST, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'Authorization, Content-Type';

export function cors(consoleOrigin: string = DEFAULT_CONSOLE_ORIGIN): MiddlewareHandler<AppEnv> {
  const browser: MiddlewareHandler<AppEnv> = async (c, next) => {
    const origin = requestHeader(c, 'origin');
    if (origin !== consoleOrigin) {
      throw fail('forbidden', 'Browser requests from this origin are refused: API keys are for server code only.');
    }
    if (c.req.method === 'OPTIONS' && requestHeader(c, 'access-control-request-method')) {
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': consoleOrigin,
        'Access-Control-Allow-Methods': ALLOW_METHODS,
        'Access-Control-Allow-Headers': ALLOW_HEADERS,
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      });
    }
    await next();
    c.res.headers.set('Access-Control-Allow-Origin', consoleOrigin);
    c.res.headers.append('Vary', 'Origin');
  };
  // Without Origin (server code, the CLI: nearly every request) no async layer of its own (#27).
  return (c, next) => (requestHeader(c, 'origin') === undefined ? next() : browser(c, next));
}
