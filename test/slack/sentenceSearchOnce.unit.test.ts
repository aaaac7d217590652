/**
 * A `/contact` text that might be a sentence costs one search: the check that the grammar's
 * search finds nothing and the grammar's answer share it. A counting lookup stands
 * in for the ERP; the answers are the commands' own, through `answerText`.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import type { LookupService } from '../../src/lookup/types.js';
import { contactCommandSpec } from '../../src/slack/listeners/commands/contact.js';
import { answerText } from '../../src/slack/listeners/commands/lookupCommand.js';
import type { SlackMessage } from '../../src/views/message.js';
import { textOf } from '../helpers/blocks.js';
import {
  makeContact,
  makeContactRow,
  makeFreshness,
  makeItem,
  makePage,
} from '../helpers/builders.js';
import { listenerDeps } from '../helpers/listenerDeps.js';

const logger = createLogger({ level: 'silent' });
const actor = { userId: 'U0ASKER01', teamId: 'T0TEAM01', channelId: 'C0CHAN01' };
const client = {
  users: { info: async () => ({ ok: true, user: {} }) },
  usergroups: { users: { list: async () => ({ ok: true, users: [] }) } },
};

/** A lookup whose searches find rows (or nothing), counting each search asked of it. */
function countingLookup(finds: boolean) {
  const searches = { items: 0, contacts: 0 };
  const freshness = makeFreshness();
  const lookup: LookupService = {
    getItem: async (ref) => ({
      data: makeItem('code' in ref ? { code: ref.code } : { id: ref.id }),
      freshness,
    }),
    getContact: async (ref) => ({
      data: makeContact('code' in ref ? { code: ref.code } : { clientid: ref.id }),
      freshness,
    }),
    searchItems: async (_query, offset) => {
      searches.items += 1;
      return { data: makePage([], { offset }), freshness };
    },
    searchContacts: async (_query, offset) => {
      searches.contacts += 1;
      return { data: makePage(finds ? [makeContactRow()] : [], { offset }), freshness };
    },
    expectedWaitMs: () => 0,
    queuePosition: () => ({ ownAhead: 0, waitMs: 0 }),
    breakerState: () => 'closed',
    close: async () => {},
  };
  return { lookup, searches };
}

async function answered(text: string, finds: boolean) {
  const { lookup, searches } = countingLookup(finds);
  const deps = listenerDeps(lookup, logger);
  const spec = contactCommandSpec(deps);
  const run = answerText(deps, spec, text, actor, client);
  if ('now' in run) throw new Error(`"${text}" was answered without a lookup`);
  const message: SlackMessage = await run.answer;
  return { text: textOf(message), searches };
}

describe('a /contact text that might be a sentence', () => {
  it("/contact who does accounts at acme: no search beyond the grammar's own when it finds the account", async () => {
    const sentence = await answered('who does accounts at acme', true);
    const plain = await answered('acme industrial accounts', true);
    expect(sentence.text).toMatch(/matching “who does accounts at acme”/);
    expect(sentence.searches.contacts).toBe(plain.searches.contacts);
  });

  it('/contact who does accounts at acme: the sentence when the search finds nothing', async () => {
    const { text } = await answered('who does accounts at acme', false);
    expect(text).not.toMatch(/No contacts match “who does/);
  });
});
