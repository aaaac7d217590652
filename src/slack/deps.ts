import type { Catalogue } from '../catalogue/catalogue.js';
import type { RecentLookups } from '../catalogue/recent.js';
import type { AppConfig } from '../config/config.js';
import type { AppLogger } from '../log/logger.js';
import type { EndpointBudget } from '../lookup/crawl-budget.js';
import type { LookupService } from '../lookup/types.js';
import type { AuditLog } from '../privacy/audit.js';
import type { InternalFiguresPolicy } from '../privacy/internalFigures.js';
import type { RevealPolicyChecker } from '../privacy/revealPolicy.js';
import type { HomeWatchRow } from '../views/appHome.js';
import type { DisplayOptions } from '../views/display.js';
import type { HelpExamples } from '../views/help.js';
import type { Watches } from '../watches/index.js';
import type { BranchNames } from '../words/catalogueIndex.js';
import type { Timing } from './delivery.js';
import type { OnceGate } from './words/once.js';

/** What the Slack listeners need; built once by the composition root. */
export interface ListenerDeps {
  lookup: LookupService;
  logger: AppLogger;
  reveal: RevealPolicyChecker;
  /** Whether cost and account terms may be drawn for the asker; absent: never. */
  internal?: InternalFiguresPolicy;
  audit: AuditLog;
  access: AppConfig['access'];
  /** Example codes and searches for help, when the ERP is the sandbox. */
  examples: HelpExamples | undefined;
  /** "Sandbox data" on every card and list; cost on shared cards (SHARE_COST). */
  display?: DisplayOptions;
  now: () => Date;
  timing: Timing;
  /** The catalogue index (typeahead, /stock categories, words answered from it). */
  catalogue?: Catalogue;
  /** Each user's recent item codes, for App Home. */
  recent?: RecentLookups;
  /** The ERP's status for App Home. */
  erpStatus?: () => ErpStatus;
  /** Stock watches (`/stock watch`, their buttons, the Watch… modal); absent: not offered. */
  watches?: Watches;
  /** The person's own watches for App Home; absent: App Home has no watches section. */
  watchesOf?: (userId: string) => Promise<HomeWatchRow[]>;
  /** Asking in words: the branch names seen on items, for branch words and abbreviations. */
  words?: { branchNames: BranchNames; once?: OnceGate };
}

export interface ErpStatus {
  sandbox: boolean;
  endpoints: EndpointBudget[];
  breaker: 'closed' | 'open' | 'half-open';
}
