/**
 * Who is who in the console's pretend workspace. The ids look like Slack's (so access rules
 * and audit lines treat them like real ones) but cannot collide with a real workspace's.
 */
export const CONSOLE = {
  userId: 'UCONSOLE',
  userName: 'console',
  teamId: 'TCONSOLE',
  teamDomain: 'console',
  channelId: 'DCONSOLE',
  channelName: 'directmessage',
  appId: 'ACONSOLE',
  botId: 'BCONSOLE',
  botUserId: 'UCONSOLEBOT',
  /** Never sent anywhere but our own loopback server. */
  token: 'xoxb-console-not-a-real-token',
  /** Slack's deprecated verification token: present in real bodies, checked by nobody. */
  verificationToken: 'console-verification-token',
} as const;

/** The workspace and app as the console's fake Web API tells them (auth.test, messages). */
export const CONSOLE_IDENTITY = {
  teamId: CONSOLE.teamId,
  teamDomain: CONSOLE.teamDomain,
  botId: CONSOLE.botId,
  botUserId: CONSOLE.botUserId,
  appId: CONSOLE.appId,
};
