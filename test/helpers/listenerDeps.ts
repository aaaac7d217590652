/** Listener dependencies for tests that call answers or listeners directly (no Bolt app). */
import type { AppLogger } from '../../src/log/logger.js';
import type { LookupService } from '../../src/lookup/types.js';
import { createAuditLog } from '../../src/privacy/audit.js';
import { createRevealPolicy } from '../../src/privacy/revealPolicy.js';
import { conversationMembers } from '../../src/slack/conversationMembers.js';
import type { ListenerDeps } from '../../src/slack/deps.js';
import { createShares } from '../../src/slack/shares.js';

export function listenerDeps(lookup: LookupService, logger: AppLogger): ListenerDeps {
  return {
    lookup,
    logger,
    reveal: createRevealPolicy({ kind: 'everyone' }, { logger }),
    audit: createAuditLog({ logger }),
    access: { stock: { channels: [], users: [] }, contact: { channels: [], users: [] } },
    examples: undefined,
    now: () => new Date('2026-03-02T10:45:00Z'),
    timing: { ackWithinMs: 200, workingAfterMs: 300 },
    shares: createShares({ logger, apiUrl: 'https://slack.com/api/' }),
    members: conversationMembers(),
  };
}
