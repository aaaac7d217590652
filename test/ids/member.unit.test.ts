/**
 * The one shape of a Slack member id (src/ids/member.ts), and the places that check it: the
 * access lists, the payloads, `notify` mentions and the views that write `<@id>` all take
 * every real id and nothing that is not one.
 */
import { describe, expect, it } from 'vitest';
import { parseReveal } from '../../src/config/schema.js';
import { MEMBER_ID, MEMBER_ID_SOURCE } from '../../src/ids/member.js';
import { UserId } from '../../src/slack/ids.js';
import { splitNotify } from '../../src/slack/watchGrammar.js';
import { removeRefusal } from '../../src/views/sharedBy.js';
import { watchRefusal } from '../../src/views/watchNotices.js';
import { mentionsOf } from '../../src/views/watchWords.js';

/** Shaped as Slack's are: `U` or `W`, then 8 to 11 upper-case letters and digits. */
const REAL = ['U012AB3CD', 'W012A3CDE', 'U2147483697', 'UGUEST01', 'U0123456789A', 'W0ABCDEFGHI'];

const NOT_IDS = [
  '',
  'U',
  'U1',
  '<!channel>',
  '<@U012AB3CD>',
  'U012AB3CD> <!channel>',
  'u012ab3cd',
  'U012ab3cd',
  'C012AB3CD',
  'S012AB3CD',
  'U012AB3CD ',
  'U012AB3CD\n',
  ' U012AB3CD',
  'U012-AB3CD',
  `U${'A'.repeat(21)}`,
  `U012AB3CD${'0'.repeat(200)}`,
];

describe('a Slack member id', () => {
  it('accepts every id shaped as Slack issues them, with room for longer ones', () => {
    for (const id of REAL) expect(MEMBER_ID.test(id), id).toBe(true);
    expect(MEMBER_ID.test('U12')).toBe(true);
    expect(MEMBER_ID.test(`W${'9'.repeat(20)}`)).toBe(true);
  });

  it('refuses markup, lower case, other kinds of id, the empty string and overlong values', () => {
    for (const value of NOT_IDS) expect(MEMBER_ID.test(value), JSON.stringify(value)).toBe(false);
  });

  it('is the same shape unanchored, for finding an id inside a mention', () => {
    const mention = new RegExp(`^<@(${MEMBER_ID_SOURCE})>$`);
    expect(mention.exec('<@U012AB3CD>')?.[1]).toBe('U012AB3CD');
    expect(mention.test(`<@U${'A'.repeat(21)}>`)).toBe(false);
  });
});

describe('every check of a member id agrees with it', () => {
  const checks: Record<string, (id: string) => boolean> = {
    'a payload (slack/ids.ts)': (id) => UserId.safeParse(id).success,
    CONTACT_REVEAL: (id) => {
      const policy = parseReveal(id);
      return policy?.kind === 'list' && policy.users.includes(id);
    },
    'notify on /stock watch': (id) => {
      const split = splitNotify(`watch WIDGET-9 below 5 notify <@${id}>`);
      return split.notify?.ok === true && split.notify.mentions.includes(`<@${id}>`);
    },
    'a stored notify mention': (id) => mentionsOf(`<@${id}>`).length === 1,
    'the Remove refusal': (id) => removeRefusal(id).text.includes(`<@${id}>`),
    'the watch refusal': (id) =>
      watchRefusal({ reason: 'watched_by_other', creatorId: id }).text.includes(`<@${id}>`),
  };

  for (const [where, check] of Object.entries(checks)) {
    it(`${where}: takes real ids, and never one that is not an id`, () => {
      for (const id of REAL) expect(check(id), id).toBe(true);
      // Both commands and the environment split on spaces: a spaced value is other words.
      for (const value of NOT_IDS.filter((v) => !/\s/.test(v))) {
        expect(check(value), JSON.stringify(value)).toBe(false);
      }
    });
  }

  it('a view names nobody for a value that is not an id', () => {
    expect(watchRefusal({ reason: 'watched_by_other', creatorId: '<!channel>' }).text).toContain(
      'someone else',
    );
    expect(removeRefusal('<!channel>').text).not.toContain('<!channel>');
  });
});
