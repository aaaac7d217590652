/**
 * Who a tool call is for: the `_meta.slack` of the signed call, as Slack's MCP client sends it
 * (`user_id`, `team_id`, `enterprise_id` in an org), by shape; anything else is nobody.
 */
import { describe, expect, it } from 'vitest';
import { actorOfCall } from '../../src/mcp/identity.js';

describe('actorOfCall', () => {
  it('reads the user and team, with no channel (a tool call has none)', () => {
    expect(actorOfCall({ slack: { user_id: 'U0123ABCD', team_id: 'T0123ABCD' } })).toEqual({
      userId: 'U0123ABCD',
      teamId: 'T0123ABCD',
      userTeamId: 'T0123ABCD',
      channelId: undefined,
    });
    expect(
      actorOfCall({ slack: { user_id: 'W0123ABCD', team_id: 'T0123ABCD', enterprise_id: 'E01' } })
        ?.userId,
    ).toBe('W0123ABCD');
  });

  it('is nobody without a Slack user and team of the right shape', () => {
    for (const meta of [
      undefined,
      {},
      { slack: {} },
      { slack: { user_id: 'U0123ABCD' } },
      { slack: { team_id: 'T0123ABCD' } },
      { slack: { user_id: 'U1> <!channel>', team_id: 'T0123ABCD' } },
      { slack: { user_id: 'U0123ABCD', team_id: '../T01' } },
      { user_id: 'U0123ABCD', team_id: 'T0123ABCD' },
    ]) {
      expect(actorOfCall(meta)).toBeUndefined();
    }
  });
});
