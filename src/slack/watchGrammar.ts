/**
 * The parts of `/stock` that read Slack's escaped entities rather than words: `notify` at the
 * end of `/stock watch …`, and `/stock digest on [HH:MM [zone]] | off`. Read from the raw
 * command text before the parser strips markup (src/slack/parser.ts calls these first).
 *
 * `notify` takes only what Slack escaped: a person (`<@U…>`, `<@U…|name>`) or a user group
 * (`<!subteam^S…>`, `<!subteam^S…|@handle>`), kept as bare ids (`<@U…>`, `<!subteam^S…>`, the
 * label dropped). `<!channel>`, `<!here>`, `<!everyone>` and anything typed as plain text
 * (`@purchasing`) never become a mention: the command is refused with the reason.
 */
import { MEMBER_ID_SOURCE } from '../ids/member.js';
import { canonicalZone, minuteOfDay } from '../watches/digestTime.js';

type NotifyProblem = 'broadcast' | 'not_mention' | 'empty' | 'too_many';

type NotifySplit =
  /** No `notify`: the text as it was. */
  | { text: string; notify?: undefined }
  | {
      text: string;
      notify:
        | { ok: true; mentions: string[] }
        | { ok: false; problem: NotifyProblem; typed: string };
    };

const MAX_MENTIONS = 10;

const PERSON = new RegExp(`^<@(${MEMBER_ID_SOURCE})(?:\\|[^<>]{0,80})?>$`);
const GROUP = /^<!subteam\^(S[A-Z0-9]{2,30})(?:\|[^<>]{0,80})?>$/;
const BROADCAST = /^<!(?:channel|here|everyone)(?:\|[^<>]{0,80})?>$/;
/** ` notify ` as its own word, after `watch …`. */
const NOTIFY_WORD = /\snotify(?:\s+|$)/i;

/** Splits `watch … notify <@U1> <!subteam^S2>` into the watch's text and its mentions. */
export function splitNotify(raw: string): NotifySplit {
  const text = String(raw);
  if (!/^\s*watch\s/i.test(text)) return { text };
  const match = NOTIFY_WORD.exec(text);
  if (match === null) return { text };
  const before = text.slice(0, match.index);
  const tokens = text
    .slice(match.index + match[0].length)
    .split(/\s+/)
    .filter((t) => t !== '');
  if (tokens.length === 0)
    return { text: before, notify: { ok: false, problem: 'empty', typed: '' } };
  const mentions: string[] = [];
  for (const token of tokens) {
    const typed = token.slice(0, 40);
    if (BROADCAST.test(token))
      return { text: before, notify: { ok: false, problem: 'broadcast', typed } };
    const person = PERSON.exec(token)?.[1];
    const group = GROUP.exec(token)?.[1];
    const mention = person ? `<@${person}>` : group ? `<!subteam^${group}>` : undefined;
    if (mention === undefined)
      return { text: before, notify: { ok: false, problem: 'not_mention', typed } };
    if (!mentions.includes(mention)) mentions.push(mention);
  }
  if (mentions.length > MAX_MENTIONS)
    return { text: before, notify: { ok: false, problem: 'too_many', typed: '' } };
  return { text: before, notify: { ok: true, mentions } };
}

type DigestCommand =
  /** `demand`: the digest also carries the last seven days' unmet demand. */
  | { action: 'on'; minuteOfDay: number; zone: string; demand: boolean }
  | { action: 'off' }
  | { action: 'status' };

type DigestRead =
  | { ok: true; value: DigestCommand }
  | { ok: false; problem: 'usage' | 'time' | 'zone'; typed: string };

/**
 * `digest`, `digest on`, `digest on 08:00`, `digest on 8:00 Australia/Perth`, `digest off`;
 * `demand` last after `on` (`digest on 08:00 demand`) adds the unmet demand.
 */
export function readDigest(raw: string): DigestRead | undefined {
  const all = String(raw).trim().split(/\s+/);
  if (all[0]?.toLowerCase() !== 'digest') return undefined;
  const demand =
    all.length > 2 && all[1]?.toLowerCase() === 'on' && all.at(-1)?.toLowerCase() === 'demand';
  const words = demand ? all.slice(0, -1) : all;
  const [, action, time, zone, ...extra] = words;
  if (action === undefined) return { ok: true, value: { action: 'status' } };
  const verb = action.toLowerCase();
  if (verb === 'off' && time === undefined) return { ok: true, value: { action: 'off' } };
  if (verb !== 'on' || extra.length > 0)
    return { ok: false, problem: 'usage', typed: action.slice(0, 40) };
  const minute = time === undefined ? 8 * 60 : minuteOfDay(time);
  if (minute === undefined) return { ok: false, problem: 'time', typed: (time ?? '').slice(0, 40) };
  const canonical = zone === undefined ? 'UTC' : canonicalZone(zone);
  if (canonical === undefined)
    return { ok: false, problem: 'zone', typed: (zone ?? '').slice(0, 60) };
  return { ok: true, value: { action: 'on', minuteOfDay: minute, zone: canonical, demand } };
}
