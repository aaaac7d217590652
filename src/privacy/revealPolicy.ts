/**
 * Who may press "Reveal details" on a contact card (CONTACT_REVEAL).
 *
 * Slack is reached through `SlackUsersApi`, a two-method subset of @slack/web-api's WebClient,
 * so the listeners pass `client` straight through and tests pass a plain object. Answers are
 * cached for a while because a burst of clicks on one card must not become a burst of
 * users.info calls (Tier 4), and every doubt (an error, an answer we cannot read) refuses:
 * revealing personal data fails closed. Who counts as a full member (`members`) is decided by
 * privacy/access.ts, against the installing workspace from auth.test.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { RevealPolicy } from '../config/config.js';
import type { AppLogger } from '../log/logger.js';
import {
  createMembership,
  describeError,
  type HomeWorkspace,
  type Membership,
  PLAUSIBLE_ID,
  type Standing,
  UnreadableAnswer,
} from './access.js';

/** The part of WebClient the policy uses; WebClient satisfies it structurally. */
export interface SlackUsersApi {
  users: {
    info(args: { user: string }): Promise<{
      ok?: boolean;
      user?: {
        is_restricted?: boolean;
        is_ultra_restricted?: boolean;
        is_bot?: boolean;
        deleted?: boolean;
        is_stranger?: boolean;
      };
    }>;
  };
  usergroups: {
    users: {
      list(args: { usergroup: string }): Promise<{ ok?: boolean; users?: string[] }>;
    };
  };
  /** The installing workspace, when none is configured (access.ts). */
  auth?: { test(): Promise<unknown> };
}

type RevealRefusalReason =
  | 'guest'
  | 'external'
  | 'not_listed'
  | 'disabled'
  | 'lookup_failed'
  | 'deactivated';

export type RevealDecision = (
  | { allowed: true }
  | { allowed: false; reason: RevealRefusalReason }
) & {
  /**
   * The presser's own team as membership found it (users.info's `team_id`, else the payload's
   * `user.team_id`), for the audit line; set under `members`, where users.info is asked.
   */
  teamId?: string | undefined;
};

/** Which organisation the presser belongs to, as far as the payload says. */
interface RevealWorkspace {
  /** The payload's `user.team_id`: the presser's own workspace. */
  userTeamId?: string | undefined;
  /**
   * Not read: the installing workspace comes from auth.test (access.ts), never from a
   * payload's `team`. Kept so that callers written before that still compile.
   * @deprecated
   */
  homeTeamId?: string | undefined;
}

export interface RevealPolicyChecker {
  /** Whether this user may see a contact's telephone numbers and e-mail addresses. */
  mayReveal(
    userId: string,
    client: SlackUsersApi,
    workspace?: RevealWorkspace,
  ): Promise<RevealDecision>;
  /** False when the policy is `nobody`: the card should not show the button at all. */
  canOffer(): boolean;
}

interface RevealPolicyOptions {
  logger: AppLogger;
  /**
   * Who is a full member, shared with the internal-figures policy so that one users.info
   * answer serves both. Default: one of its own, built from these options.
   */
  membership?: Membership;
  /** The installing workspace (auth.test), for the membership built here. */
  home?: HomeWorkspace | (() => Promise<HomeWorkspace>);
  /**
   * How long a users.info or usergroups.users.list answer is trusted, in milliseconds.
   * Default 2 minutes: brief, so that a member made a guest, deactivated or turned external
   * loses access quickly, while a burst of clicks still costs one call.
   * Failed lookups are never cached, so the next click asks Slack again.
   */
  cacheTtlMs?: number;
  /** Milliseconds clock for the cache; `performance.now` by default. Tests inject their own. */
  now?: () => number;
}

const DEFAULT_TTL_MS = 2 * 60 * 1000;
const ALLOWED: RevealDecision = { allowed: true };
const refuse = (reason: RevealRefusalReason): RevealDecision => ({ allowed: false, reason });

// Unknown fields are ignored; a field we decide on with the wrong type is "unreadable".
const GroupMembersAnswer = z.object({
  ok: z.boolean().optional(),
  users: z.array(z.string()).optional(),
});

export function createRevealPolicy(
  policy: RevealPolicy,
  options: RevealPolicyOptions,
): RevealPolicyChecker {
  const ttl = options.cacheTtlMs ?? DEFAULT_TTL_MS;
  if (!Number.isFinite(ttl) || ttl <= 0) {
    throw new RangeError(`cacheTtlMs must be a positive number of milliseconds, got ${ttl}`);
  }
  const cacheOptions = {
    max: 5000,
    ttl,
    // lru-cache reuses one clock reading for `ttlResolution` ms of real time; an injected
    // clock must be read every time, or expiry would lag behind it.
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
  };
  const lookups = new CachedLookups(options.logger, cacheOptions);
  const membership =
    options.membership ??
    createMembership({
      logger: options.logger,
      home: options.home,
      cacheTtlMs: ttl,
      ...(options.now ? { now: options.now } : {}),
    });

  const mayReveal = async (
    userId: string,
    client: SlackUsersApi,
    workspace: RevealWorkspace = {},
  ): Promise<RevealDecision> => {
    switch (policy.kind) {
      case 'everyone':
        return ALLOWED;
      case 'nobody':
        return refuse('disabled');
      case 'members': {
        const viewer = { userId, teamId: workspace.userTeamId };
        const answer = await membership.standing(viewer, client);
        return { ...memberDecision(answer.standing), teamId: answer.teamId };
      }
      case 'list':
        if (!PLAUSIBLE_ID.test(userId)) return refuse('lookup_failed');
        return listDecision(policy, userId, client, lookups);
    }
  };

  return { mayReveal, canOffer: () => policy.kind !== 'nobody' };
}

const STANDING_DECISIONS: Record<Standing, RevealDecision> = {
  member: ALLOWED,
  guest: refuse('guest'),
  external: refuse('external'),
  deactivated: refuse('deactivated'),
  // A bot pressing a button, or an answer we could not get: nobody to explain more to.
  bot: refuse('lookup_failed'),
  unknown: refuse('lookup_failed'),
};

function memberDecision(standing: Standing): RevealDecision {
  return STANDING_DECISIONS[standing];
}

async function listDecision(
  policy: Extract<RevealPolicy, { kind: 'list' }>,
  userId: string,
  client: SlackUsersApi,
  lookups: CachedLookups,
): Promise<RevealDecision> {
  if (policy.users.includes(userId)) return ALLOWED;
  let anyGroupFailed = false;
  for (const group of policy.userGroups) {
    const members = await lookups.groupMembers(group, client);
    if (members === undefined) anyGroupFailed = true;
    else if (members.has(userId)) return ALLOWED;
  }
  // The user might be in the group we could not read: that is a failure, not a "no".
  return refuse(anyGroupFailed ? 'lookup_failed' : 'not_listed');
}

/** Cached, coalesced Slack lookups. `undefined` means "could not find out" (already logged). */
class CachedLookups {
  private readonly groups: LRUCache<string, Promise<ReadonlySet<string>>>;

  constructor(
    private readonly logger: AppLogger,
    cacheOptions: {
      max: number;
      ttl: number;
      perf?: { now: () => number };
      ttlResolution?: number;
    },
  ) {
    this.groups = new LRUCache({ ...cacheOptions, max: 500 });
  }

  groupMembers(groupId: string, client: SlackUsersApi): Promise<ReadonlySet<string> | undefined> {
    return this.cached(this.groups, groupId, 'usergroups.users.list', async () => {
      const answer = GroupMembersAnswer.safeParse(
        await client.usergroups.users.list({ usergroup: groupId }),
      );
      if (!answer.success || answer.data.ok === false || !answer.data.users) {
        throw new UnreadableAnswer('usergroups.users.list answer has no readable member list');
      }
      return new Set(answer.data.users);
    });
  }

  /**
   * The in-flight promise itself is cached, so concurrent clicks share one call. A failure is
   * removed from the cache at once (the next click retries) and logged once per call.
   */
  private async cached<V extends object>(
    cache: LRUCache<string, Promise<V>>,
    key: string,
    method: string,
    load: () => Promise<V>,
  ): Promise<V | undefined> {
    let pending = cache.get(key);
    if (pending === undefined) {
      pending = load();
      cache.set(key, pending);
      const mine = pending;
      mine.catch((error: unknown) => {
        if (cache.peek(key) === mine) cache.delete(key);
        this.logFailure(method, key, error);
      });
    }
    try {
      return await pending;
    } catch {
      return undefined;
    }
  }

  private logFailure(method: string, id: string, error: unknown): void {
    // Only Slack's error code and the id: never the answer itself, which describes a person.
    this.logger.warn(
      { event: 'reveal_check_failed', method, slackId: id, error: describeError(error) },
      'could not check who may reveal contact details; refusing',
    );
  }
}

const REFUSALS: Record<RevealRefusalReason, string> = {
  guest: "Guest accounts can't reveal contact details. Ask a full member of the workspace.",
  external:
    "People from other organisations can't reveal contact details here. Ask a member of this workspace.",
  not_listed:
    "You're not on the list of people who may reveal contact details. Ask an admin if you need access.",
  disabled: 'Revealing contact details is turned off in this workspace.',
  lookup_failed:
    "I couldn't check whether you may reveal contact details, so they stay hidden. Please try again in a minute.",
  deactivated: "This account is deactivated, so contact details can't be revealed.",
};

/** The words shown (ephemerally) to a refused user; empty for an allowed decision. */
export function revealRefusal(decision: RevealDecision): string {
  return decision.allowed ? '' : REFUSALS[decision.reason];
}
