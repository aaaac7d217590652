import { describe, expect, it } from 'vitest';
import { signSlackRequest } from '../helpers/slack/signing.js';

// Slack's worked example from docs.slack.dev/authentication/verifying-requests-from-slack.
const DOCS_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const DOCS_TIMESTAMP = 1531420618;
const DOCS_BODY =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V' +
  '&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=' +
  '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN' +
  '&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';

describe('signSlackRequest', () => {
  it("reproduces Slack's documented example signature", () => {
    expect(signSlackRequest(DOCS_SECRET, DOCS_BODY, DOCS_TIMESTAMP)).toEqual({
      'x-slack-signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
      'x-slack-request-timestamp': '1531420618',
    });
  });

  it('changes when the body, the secret or the timestamp changes', () => {
    const original = signSlackRequest(DOCS_SECRET, DOCS_BODY, DOCS_TIMESTAMP)['x-slack-signature'];
    const variants = [
      signSlackRequest(DOCS_SECRET, `${DOCS_BODY}x`, DOCS_TIMESTAMP),
      signSlackRequest(`${DOCS_SECRET}x`, DOCS_BODY, DOCS_TIMESTAMP),
      signSlackRequest(DOCS_SECRET, DOCS_BODY, DOCS_TIMESTAMP + 1),
    ];
    for (const variant of variants) expect(variant['x-slack-signature']).not.toBe(original);
  });

  it('defaults the timestamp to now, in seconds', () => {
    const before = Math.floor(Date.now() / 1000);
    const stamp = Number(signSlackRequest('secret', 'a=b')['x-slack-request-timestamp']);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(stamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });
});
