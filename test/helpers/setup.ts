// Runs before every test file.
import fc from 'fast-check';

// Keeps test output quiet unless a test asks for logs.
process.env.LOG_LEVEL ??= 'silent';

// Property tests explore new inputs on every developer run; CI replays one fixed seed, so a
// submission's result does not depend on the draw (a failure found locally prints its seed).
if (process.env.CI) fc.configureGlobal({ seed: 20_261_122 });
