import type { AppLogger } from '../../src/log/logger.js';
import type { SlackUsersApi } from '../../src/privacy/revealPolicy.js';
import { collectingLogger as sharedCollectingLogger } from '../helpers/logSink.js';

/** A real pino logger whose JSON lines land in `lines`, parsed. */
export function collectingLogger(): { logger: AppLogger; lines: Record<string, unknown>[] } {
  const sink = sharedCollectingLogger('info', 'privacy');
  return { logger: sink.logger, lines: sink.parsed };
}

type UserAnswer = Awaited<ReturnType<SlackUsersApi['users']['info']>>;

/** The fake's installing workspace, as its auth.test says. */
export const HOME_TEAM = 'THOME';

/** A users.info user; `team_id` is the home team unless given. */
export type FakeSlackUser = NonNullable<UserAnswer['user']> & {
  team_id?: string;
  is_bot?: boolean;
  is_invited_user?: boolean;
  enterprise_user?: { enterprise_id?: string; teams?: string[] };
};

/** A fake Slack client: answers by id, counts calls, and can be told to fail. */
export function fakeSlack(
  options: {
    users?: Record<string, FakeSlackUser>;
    /** auth.test's answer; `{ ok: true, team_id: HOME_TEAM }` by default. */
    authTest?: unknown;
    failAuthTest?: boolean;
    groups?: Record<string, string[]>;
    failUsers?: boolean;
    failGroups?: readonly string[];
    /** Raw answers returned as-is, to test validation. */
    rawUserAnswer?: unknown;
  } = {},
) {
  const calls = { usersInfo: [] as string[], groupList: [] as string[], authTest: 0 };
  const client: SlackUsersApi = {
    auth: {
      async test() {
        calls.authTest += 1;
        if (options.failAuthTest) {
          throw Object.assign(new Error('An API error occurred: invalid_auth'), {
            data: { ok: false, error: 'invalid_auth' },
          });
        }
        return options.authTest ?? { ok: true, team_id: HOME_TEAM, enterprise_id: null };
      },
    },
    users: {
      async info({ user }) {
        calls.usersInfo.push(user);
        if (options.failUsers) {
          throw Object.assign(new Error('An API error occurred: user_not_found'), {
            code: 'slack_webapi_platform_error',
            data: { ok: false, error: 'user_not_found' },
          });
        }
        if (options.rawUserAnswer !== undefined) return options.rawUserAnswer as UserAnswer;
        const found = options.users?.[user];
        return found ? { ok: true, user: { team_id: HOME_TEAM, ...found } } : { ok: false };
      },
    },
    usergroups: {
      users: {
        async list({ usergroup }) {
          calls.groupList.push(usergroup);
          if (options.failGroups?.includes(usergroup)) throw new Error('socket hang up');
          return { ok: true, users: options.groups?.[usergroup] ?? [] };
        },
      },
    },
  };
  return { client, calls };
}
