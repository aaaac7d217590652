/** The sandbox ERP: a faithful simulator of shared/erp-api-spec.md over generated data. */

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
export type * from './types.js';
