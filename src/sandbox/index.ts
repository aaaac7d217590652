/**
 * The sandbox ERP: a faithful simulator of the ERP API (docs/erp-api.md) over generated data.
 *
 * Where the spec says "not shown", the sandbox picks one behaviour (switchable where clients
 * must survive both, see `SandboxBehaviour`):
 * - search `count`: the total (`countMeaning: 'page'` for the page size);
 * - 429: no `Retry-After` (`retryAfter: true` sends whole seconds);
 * - `q`: required, 400 without keywords (`requireQuery: false` lists what the filters allow);
 * - `offset` default 0; empty or malformed parameters are 400s (params.ts);
 * - error bodies `{ status, error, message }` in JSON; XML only for getItem/getContact;
 *   `debug` answers text/plain (render.ts);
 * - numeric status: Active 1, Disabled 0, Suspended 2 (types.ts);
 * - `supplierCodes` elements `{ supplier, code }` (types.ts);
 * - rate limits per company code and endpoint, fixed windows; order of checks (server.ts);
 * - search ranking ties and the meaning of "fuzzy" for contacts (search.ts).
 */

export { DEFAULT_SANDBOX_SEED, generateSandboxData, type SandboxData } from './data.js';
export { sandboxOptionsFromEnv } from './env.js';
export { bomDepth, type SandboxExamples } from './examples.js';
export { DEFAULT_SANDBOX_BEHAVIOUR, DEFAULT_SANDBOX_LIMITS, NO_FAULTS } from './options.js';
export {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  type SandboxBehaviour,
  type SandboxCredentials,
  type SandboxFaults,
  type SandboxLimits,
  type SandboxOptions,
  type SandboxStats,
  startSandbox,
} from './server.js';
export { moveSandboxStock, type StockMove, type StockMoveResult } from './stock.js';
export type * from './types.js';
