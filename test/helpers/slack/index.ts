/** The Slack test harness: a fake Slack, signed requests and Slack-shaped payloads. */
export * from './boltLogger.js';
export * from './fakeSlack.js';
export * from './payloads.js';
export * from './post.js';
export * from './signing.js';
