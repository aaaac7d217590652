import type { Catalogue } from '../catalogue/catalogue.js';
import type { RecentLookups } from '../catalogue/recent.js';
import type { AppConfig } from '../config/config.js';
import type { AppLogger } from '../log/logger.js';
import type { ErpStatus } from '../lookup/budgetStatus.js';
import type { LookupService } from '../lookup/types.js';
import type { OnceGate } from '../ops/onceGate.js';
import type { InternalFiguresPolicy } from '../privacy/access.js';
import type { AuditLog } from '../privacy/audit.js';
import type { RevealPolicyChecker } from '../privacy/revealPolicy.js';
import type { HomeWatchRow } from '../views/appHome.js';
import type { DisplayOptions } from '../views/format.js';
import type { HelpExamples } from '../views/help.js';
import type { Watches } from '../watches/index.js';
import type { BranchNames } from '../words/catalogueIndex.js';
import type { ConversationMembers } from './conversationMembers.js';
import type { Timing } from './delivery.js';
import type { Shares } from './shares.js';
import type { ConversationMemory } from './words/memory.js';

/**
 * What every listener needs to answer at all: who may ask, how an answer is delivered within
 * Slack's three seconds, and what every card and help text shows.
 */
export interface DeliveryDeps {
  logger: AppLogger;
  access: AppConfig['access'];
  now: () => Date;
  timing: Timing;
  /** "Sandbox data" on every card and list; cost on shared cards (SHARE_COST). */
  display?: DisplayOptions;
  /** Example codes and searches for help, when the ERP is the sandbox. */
  examples: HelpExamples | undefined;
}

/** Items: `/stock`, its buttons, the search modal, App Home's recent codes. */
export interface ItemDeps {
  lookup: LookupService;
  /** Whether cost may be drawn for the asker; absent: never. */
  internal?: InternalFiguresPolicy;
  /** The catalogue index (typeahead, /stock categories, words answered from it). */
  catalogue?: Catalogue;
  /** Each user's recent item codes, for App Home. */
  recent?: RecentLookups;
  /** The ERP's status for App Home. */
  erpStatus?: () => ErpStatus;
  /**
   * The sell price of an item the index has none for (one search when the budget has room,
   * else undefined at once; src/catalogue/sellPrice.ts); absent: the index's price only.
   */
  sellPrice?: (code: string) => Promise<number | undefined>;
  /** Counts each No answer (unmet demand, by item and branch); absent: nothing is counted. */
  demand?: { noAnswered(code: string, branch: { id: number; name: string } | undefined): void };
}

/** Contacts: `/contact`, its buttons, Reveal and its audit trail. */
export interface ContactDeps {
  lookup: LookupService;
  /** Whether account terms may be drawn for the asker; absent: never. */
  internal?: InternalFiguresPolicy;
  reveal: RevealPolicyChecker;
  audit: AuditLog;
}

/** Stock watches (`/stock watch`, their buttons, the Watch… modal, App Home's list). */
export interface WatchDeps {
  /** Absent: watches are not offered. */
  watches?: Watches;
  /** The person's own watches for App Home; absent: App Home has no watches section. */
  watchesOf?: (userId: string) => Promise<HomeWatchRow[]>;
}

/** Asking in words: the branch names seen on items, and the gate that answers a message once. */
export interface WordsDeps {
  words?: {
    branchNames: BranchNames;
    once?: OnceGate;
    /** Each conversation's last question, for follow-ups (src/slack/words/followUps.ts). */
    memory?: ConversationMemory;
  };
}

/** Sharing to a conversation: the app's record of each share (Remove) and of repeated presses. */
export interface ShareDeps {
  shares: Shares;
}

/**
 * Who is in a conversation the app was asked to post into (the search modal's share, the
 * Watch… modal's channel): one cache for both, so one channel's members are read once.
 */
export interface MembersDeps {
  members: ConversationMembers;
}

/** Everything the listeners use, built once by the composition root; each listener takes its part. */
export type ListenerDeps = DeliveryDeps &
  ItemDeps &
  ContactDeps &
  WatchDeps &
  WordsDeps &
  ShareDeps &
  MembersDeps;
