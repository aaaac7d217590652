/**
 * Who may do what. STOCK_ALLOWED_* / CONTACT_ALLOWED_*: which channels and users may run a
 * command; the listeners ask before any ERP work and answer the refusal ephemerally. Below,
 * membership: who is a full member of the installing workspace, for reveal and internal
 * figures.
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { AccessRule, AppConfig } from '../config/config.js';
import type { AppLogger } from '../log/logger.js';

export type AccessDecision =
  | { allowed: true }
  | { allowed: false; reason: 'user_not_allowed' | 'channel_not_allowed'; message: string };

type GuardedCommand = '/stock' | '/contact';

type AccessRules = AppConfig['access'];

/**
 * Empty lists mean every user and every channel. When both lists are set, both must match.
 * The user is checked first: telling someone who may not use the command anywhere that it is
 * "not enabled in this channel" would send them hunting for another channel.
 */
export function checkAccess(
  rule: AccessRule,
  who: { userId: string; channelId: string | undefined },
  command: GuardedCommand,
): AccessDecision {
  if (rule.users.length > 0 && !rule.users.includes(who.userId)) {
    return {
      allowed: false,
      reason: 'user_not_allowed',
      message: `${command} is not enabled for your account; ask an admin.`,
    };
  }
  // No channel (a surface without one) cannot be on a channel list, so it is refused.
  if (
    rule.channels.length > 0 &&
    (who.channelId === undefined || !rule.channels.includes(who.channelId))
  ) {
    return {
      allowed: false,
      reason: 'channel_not_allowed',
      message: `${command} is not enabled in this channel; ask an admin.`,
    };
  }
  return { allowed: true };
}

/**
 * What the access rules say to this person here about a family of commands, asked by a
 * command, a sentence or a tool call of Slack's agent: undefined when allowed; a refusal is logged (ids only).
 */
export function accessRefusal(
  deps: { logger: AppLogger; access: AccessRules },
  family: 'stock' | 'contact',
  actor: { userId: string; channelId: string | undefined },
  asked: 'command' | 'sentence' | 'tool',
): string | undefined {
  const decision = checkAccess(
    deps.access[family],
    actor,
    family === 'stock' ? '/stock' : '/contact',
  );
  if (decision.allowed) return undefined;
  deps.logger.info(
    { user: actor.userId, channel: actor.channelId },
    `${asked} refused by access rules`,
  );
  return decision.message;
}

// Who is a full member of the installing workspace: the one answer behind "Reveal details"
// (CONTACT_REVEAL=members) and internal figures (cost, account terms).
//
// The installing workspace is what `auth.test` says for the bot token, never a payload's
// `team`: in a Slack Connect channel that is the channel's workspace whoever presses. The
// presser is judged by their own team (the payload's `user.team_id`, a fast "no") and by
// users.info, which must name the installing team (or, in an Enterprise org, its enterprise)
// and no guest, stranger, bot, invited or deactivated flag. Every doubt (an error, an answer
// we cannot read, a workspace we do not know yet) is "not a member": these answers guard
// internal data, so they fail closed.
//
// users.info answers are cached briefly (a burst of clicks on one card costs one call, and a
// member made a guest loses access within minutes); a failed lookup counts as "not a member"
// and is asked again after a few seconds.

/** The installing workspace, from auth.test. */
export interface HomeWorkspace {
  teamId: string | undefined;
  /** Set when the workspace belongs to an Enterprise org. */
  enterpriseId: string | undefined;
}

/** Who pressed or typed, as the payload says: the user and their own team. */
interface Viewer {
  userId: string;
  /** The payload's `user.team_id` (a command's `team_id`): the presser's own workspace. */
  teamId?: string | undefined;
}

export type Standing = 'member' | 'guest' | 'external' | 'deactivated' | 'bot' | 'unknown';

/** What users.info showed, for audit lines: the presser's own team as Slack states it. */
interface MemberAnswer {
  standing: Standing;
  /** users.info's `team_id`, else the payload's: the presser's own team. */
  teamId: string | undefined;
}

/** The part of WebClient membership uses; WebClient satisfies it structurally. */
export interface SlackMembersApi {
  users: {
    info(args: { user: string }): Promise<unknown>;
  };
  auth?: {
    test(): Promise<unknown>;
  };
}

interface MembershipOptions {
  logger: AppLogger;
  /**
   * The installing workspace. Default: `auth.test` through the first client passed to
   * `standing`, asked once (again after a failure).
   */
  home?: HomeWorkspace | (() => Promise<HomeWorkspace>);
  /** How long a users.info answer is trusted, in milliseconds. Default 2 minutes. */
  cacheTtlMs?: number;
  /** Milliseconds clock for the cache; `performance.now` by default. Tests inject their own. */
  now?: () => number;
}

export interface Membership {
  /** Whether this viewer is a full member of the installing workspace, and their own team. */
  standing(viewer: Viewer, client: SlackMembersApi): Promise<MemberAnswer>;
}

const DEFAULT_TTL_MS = 2 * 60 * 1000;
const FAILED_TTL_MS = 15 * 1000;
// Slack ids are short upper-case tokens; anything else is refused before it reaches a cache key.
export const PLAUSIBLE_ID = /^[A-Z0-9_]{1,64}$/i;

const flag = z.boolean().optional();
// Unknown fields are ignored; a field we decide on with the wrong type makes the answer unreadable.
const UsersInfoAnswer = z.object({
  ok: z.boolean().optional(),
  user: z
    .object({
      team_id: z.string().optional(),
      is_restricted: flag,
      is_ultra_restricted: flag,
      is_stranger: flag,
      is_bot: flag,
      is_invited_user: flag,
      deleted: flag,
      enterprise_user: z
        .object({
          enterprise_id: z.string().optional(),
          teams: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
});
type SlackUser = NonNullable<z.infer<typeof UsersInfoAnswer>['user']>;

const AuthTestAnswer = z.object({
  ok: z.boolean().optional(),
  team_id: z.string().min(1).optional(),
  enterprise_id: z.string().min(1).nullish(),
});

/** The installing workspace from an auth.test answer; throws when it names no team. */
async function homeFromAuthTest(client: SlackMembersApi): Promise<HomeWorkspace> {
  if (!client.auth) throw new UnreadableAnswer('client has no auth.test');
  const answer = AuthTestAnswer.safeParse(await client.auth.test());
  if (!answer.success || answer.data.ok === false || !answer.data.team_id) {
    throw new UnreadableAnswer('auth.test answer names no team');
  }
  return { teamId: answer.data.team_id, enterpriseId: answer.data.enterprise_id ?? undefined };
}

export function createMembership(options: MembershipOptions): Membership {
  const ttl = options.cacheTtlMs ?? DEFAULT_TTL_MS;
  if (!Number.isFinite(ttl) || ttl <= 0) {
    throw new RangeError(`cacheTtlMs must be a positive number of milliseconds, got ${ttl}`);
  }
  const { logger } = options;
  const users = new LRUCache<string, SlackUser, SlackMembersApi>({
    max: 5000,
    ttl,
    // lru-cache reuses one clock reading for `ttlResolution` ms of real time; an injected
    // clock must be read every time, or expiry would lag behind it.
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    // fetch() coalesces concurrent clicks into one call; a rejection is not cached.
    // Logged here, once per call, however many presses were waiting for it.
    fetchMethod: async (userId, _stale, { context }) => {
      try {
        const answer = UsersInfoAnswer.safeParse(await context.users.info({ user: userId }));
        if (!answer.success || answer.data.ok === false || !answer.data.user) {
          throw new UnreadableAnswer('users.info answer has no readable user');
        }
        return answer.data.user;
      } catch (error) {
        logFailure(logger, 'users.info', userId, error);
        throw error;
      }
    },
  });
  const home = homeSource(options.home);

  // A failed users.info is remembered briefly too: every card drawn while Slack fails would
  // otherwise ask again (and log again) for each press, against Slack's rate limit. Doubt
  // means no internal figures and no reveal, so the short wait only errs on the safe side.
  const failed = new LRUCache<string, true>({
    max: 1_000,
    ttl: FAILED_TTL_MS,
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
  });
  const userOf = async (userId: string, client: SlackMembersApi) => {
    // A plain read first: lru-cache's fetch builds options and a promise even for a hit.
    const known = users.get(userId);
    if (known !== undefined) return known;
    if (failed.has(userId)) return undefined;
    try {
      return await users.fetch(userId, { context: client });
    } catch {
      failed.set(userId, true);
      return undefined;
    }
  };

  return {
    async standing(viewer, client) {
      const payloadTeam = viewer.teamId;
      if (!PLAUSIBLE_ID.test(viewer.userId)) return { standing: 'unknown', teamId: payloadTeam };
      const workspace = await home(client, logger);
      if (workspace === undefined) return { standing: 'unknown', teamId: payloadTeam };
      // Slack Connect: the payload already says the presser belongs to another organisation.
      if (payloadTeam !== undefined && !isHome(payloadTeam, workspace)) {
        return { standing: 'external', teamId: payloadTeam };
      }
      const user = await userOf(viewer.userId, client);
      if (user === undefined) return { standing: 'unknown', teamId: payloadTeam };
      return { standing: standingOf(user, workspace), teamId: user.team_id ?? payloadTeam };
    },
  };
}

/** A payload team is ours when it is the installing team or, in an org, its enterprise. */
function isHome(teamId: string, home: HomeWorkspace): boolean {
  return (
    teamId === home.teamId || (home.enterpriseId !== undefined && teamId === home.enterpriseId)
  );
}

function standingOf(user: SlackUser, home: HomeWorkspace): Standing {
  if (user.deleted) return 'deactivated';
  if (user.is_bot) return 'bot';
  if (user.is_stranger || !belongsHome(user, home)) return 'external';
  if (user.is_restricted || user.is_ultra_restricted || user.is_invited_user) return 'guest';
  return 'member';
}

/**
 * users.info's own team must be the installing one. In an Enterprise org a member's
 * `team_id` may be another workspace of the org: there the enterprise must match and the
 * installing team be among the user's teams.
 */
function belongsHome(user: SlackUser, home: HomeWorkspace): boolean {
  if (user.team_id !== undefined && user.team_id === home.teamId) return true;
  const enterprise = user.enterprise_user;
  if (home.enterpriseId === undefined || enterprise?.enterprise_id !== home.enterpriseId) {
    return false;
  }
  return home.teamId === undefined || (enterprise.teams ?? []).includes(home.teamId);
}

type HomeSource = (
  client: SlackMembersApi,
  logger: AppLogger,
) => Promise<HomeWorkspace | undefined>;

function homeSource(home: MembershipOptions['home']): HomeSource {
  if (home !== undefined && typeof home !== 'function') return async () => home;
  const load = home ?? undefined;
  let known: Promise<HomeWorkspace> | undefined;
  return async (client, logger) => {
    known ??= load ? load() : homeFromAuthTest(client);
    try {
      return await known;
    } catch (error) {
      // Asked again at the next press: a passing outage must not refuse members for good.
      known = undefined;
      logFailure(logger, 'auth.test', undefined, error);
      return undefined;
    }
  };
}

/** An answer from Slack without the fields a decision needs. */
export class UnreadableAnswer extends Error {
  override name = 'UnreadableAnswer';
}

function logFailure(
  logger: AppLogger,
  method: string,
  slackId: string | undefined,
  error: unknown,
): void {
  // Only Slack's error code and the id: never the answer itself, which describes a person.
  logger.warn(
    { event: 'membership_check_failed', method, slackId, error: describeError(error) },
    'could not check whether a user is a full member; treating them as not one',
  );
}

/** Slack's stable error code (`user_not_found`, `missing_scope`) or the error's class name. */
export function describeError(error: unknown): string {
  if (error instanceof UnreadableAnswer) return 'unreadable_answer';
  if (typeof error === 'object' && error !== null) {
    const data = (error as { data?: { error?: unknown } }).data;
    if (typeof data?.error === 'string') return data.error;
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return error instanceof Error ? error.name : 'unknown';
}

const PayloadUser = z.object({ id: z.string().min(1), team_id: z.string().min(1).optional() });
// Interactions (buttons, shortcuts, modals, typeahead) name the presser in `user`; a slash
// command in `user_id` and `team_id`. Nothing else in a payload describes the presser.
const ViewerFields = z.union([
  z.object({ user: PayloadUser }),
  z.object({ user_id: z.string().min(1), team_id: z.string().min(1).optional() }),
]);

/** The presser and their own team, from any interaction or slash command payload. */
export function viewerOf(body: unknown): Viewer | undefined {
  const parsed = ViewerFields.safeParse(body);
  if (!parsed.success) return undefined;
  return 'user' in parsed.data
    ? { userId: parsed.data.user.id, teamId: parsed.data.user.team_id }
    : { userId: parsed.data.user_id, teamId: parsed.data.team_id };
}

/**
 * Internal figures: an item's and its components' cost, and a contact's account terms (credit
 * limit, discount, terms, stop credit). A Slack Connect partner or a guest may sit in any
 * channel and press any button on a shared card (View, Expand, All branches, Refresh, the
 * search modal's select), so the figures are drawn only for a full member of the installing
 * workspace, decided per press by the membership above (users.info against auth.test, cached).
 *
 * The answer is about the person a card is drawn for: the asker of a private card, or the
 * sharer of a shared one. A shared card carries the figures only when SHARE_COST /
 * SHARE_ACCOUNT_TERMS also allow it (the views decide that, from `internalFigures` and the
 * workspace's switches).
 */
export interface InternalFiguresPolicy {
  /** True only for a full member of the installing workspace; every doubt is false. */
  internalFigures(viewer: Viewer | undefined, client: SlackMembersApi): Promise<boolean>;
}

interface InternalFiguresOptions {
  /** Shared with the reveal policy, so that one users.info answer serves both. */
  membership?: Membership;
  /** For a membership of its own, when none is passed. */
  logger: AppLogger;
}

export function createInternalFigures(options: InternalFiguresOptions): InternalFiguresPolicy {
  const membership = options.membership ?? createMembership({ logger: options.logger });
  return {
    async internalFigures(viewer, client) {
      if (viewer === undefined) return false;
      try {
        return (await membership.standing(viewer, client)).standing === 'member';
      } catch {
        return false;
      }
    },
  };
}
