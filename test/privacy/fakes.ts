import type { AppLogger } from '../../src/log/logger.js';
import type { SlackUsersApi } from '../../src/privacy/revealPolicy.js';
import { collectingLogger as sharedCollectingLogger } from '../helpers/logSink.js';

/** A real pino logger whose JSON lines land in `lines`, parsed. */
export function collectingLogger(): { logger: AppLogger; lines: Record<string, unknown>[] } {
  const sink = sharedCollectingLogger('info', 'privacy');
  return { logger: sink.logger, lines: sink.parsed };
}

type UserAnswer = Awaited<ReturnType<SlackUsersApi['users']['info']>>;

/** A fake Slack client: answers by id, counts calls, and can be told to fail. */
export function fakeSlack(
  options: {
    users?: Record<string, UserAnswer['user']>;
    groups?: Record<string, string[]>;
    failUsers?: boolean;
    failGroups?: readonly string[];
    /** Raw answers returned as-is, to test validation. */
    rawUserAnswer?: unknown;
  } = {},
) {
  const calls = { usersInfo: [] as string[], groupList: [] as string[] };
  const client: SlackUsersApi = {
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
        return found ? { ok: true, user: found } : { ok: false };
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
