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

/**
 * The pretend workspace's user groups, by handle. Slack's composer turns an `@handle` picked
 * from its menu into an escaped mention before the command is sent; the console does the same
 * for these and for its one person, so `notify @purchasing` works as README shows it.
 */
const CONSOLE_GROUPS: Readonly<Record<string, string>> = {
  purchasing: 'S0CONPURCHASING',
  sales: 'S0CONSALES',
  support: 'S0CONSUPPORT',
};

/** `@purchasing` → `<!subteam^S0CONPURCHASING|@purchasing>`, `@console` → `<@UCONSOLE|console>`. */
export function escapeMentions(text: string): string {
  return text.replace(/(^|\s)@([a-z][\w.-]*)(?=$|\s)/gi, (whole, space: string, handle: string) => {
    const name = handle.toLowerCase();
    if (name === CONSOLE.userName) return `${space}<@${CONSOLE.userId}|${CONSOLE.userName}>`;
    const group = CONSOLE_GROUPS[name];
    return group ? `${space}<!subteam^${group}|@${name}>` : whole;
  });
}

/** The name Slack would show for one of the pretend workspace's ids, if it is one. */
export function consoleHandle(id: string): string | undefined {
  if (id === CONSOLE.userId) return CONSOLE.userName;
  return Object.entries(CONSOLE_GROUPS).find(([, group]) => group === id)?.[0];
}
