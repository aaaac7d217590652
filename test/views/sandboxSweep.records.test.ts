/**
 * A sweep of the views over the whole sandbox data set (helpers/sweepData.ts): every item
 * card, every page of every contact card, every reveal answer, every search page and shortcut
 * answer (helpers/sweepMessages.ts) must pass the checks of helpers/sweepChecks.ts. Hand-written
 * worst cases live in worstCase.test.ts and hostile.test.ts; this is the realistic data, all
 * of it, so a record that breaks a view cannot hide in the sandbox. The extreme records as a
 * person reads them: sandboxSweep.extremes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { contactReveal } from '../../src/views/contactCard.js';
import type { SlackMessage } from '../../src/views/message.js';
import { TEST_NOW } from '../helpers/builders.js';
import { problemsOf, secretsOf, sweep } from './helpers/sweepChecks.js';
import {
  contacts,
  EVERY,
  extremeContacts,
  extremeItems,
  items,
  itemsByCode,
} from './helpers/sweepData.js';
import {
  contactCards,
  contactSearchPages,
  itemCards,
  itemSearchPages,
  shortcutAnswers,
} from './helpers/sweepMessages.js';

describe('the sandbox data, as parsed by the app', () => {
  it('holds the extremes this sweep is meant to cover', () => {
    const byCode = (code: string) => itemsByCode.get(code);
    expect(items.length).toBeGreaterThanOrEqual(2000);
    expect(contacts.length).toBeGreaterThanOrEqual(500);
    expect(Math.max(...items.map((i) => i.bom.length))).toBeGreaterThanOrEqual(80);
    expect(Math.max(...contacts.map((c) => c.addressbook.length))).toBeGreaterThanOrEqual(40);
    expect(byCode('EVIL-CHANNEL')?.description).toContain('<!channel>');
    expect(byCode('EVIL-MENTION')?.description).toContain('<@U123>');
    expect(byCode('LONG-DESC')?.description.length).toBeGreaterThan(3000);
    expect(contacts.find((c) => c.code === 'EVIL01')?.company).toContain('<!channel>');
    // ...and that they get every variant.
    for (const code of ['PLANT-88', 'LONG-DESC', 'EVIL-CHANNEL', 'ODD-UNICODE', 'WIDGET-9']) {
      expect(extremeItems.has(code)).toBe(true);
    }
    for (const code of ['BIGCO01', 'GOODWI02', 'EVIL01', 'INTL01', 'R&D/01']) {
      expect(extremeContacts.has(code)).toBe(true);
    }
  });

  it('the check catches a leak, foreign markup and a broken button', () => {
    const contact = contacts.find((c) => c.code === 'BIGCO01');
    if (!contact) throw new Error('BIGCO01 missing from the sandbox');
    const reveal = contactReveal({ contact, now: TEST_NOW });
    const leaked = problemsOf({
      name: 'reveal as a card',
      message: reveal,
      secrets: secretsOf(contact),
    });
    expect(leaked.some((p) => p.includes('contact detail'))).toBe(true);
    const forged: SlackMessage = {
      text: 'Hi <!channel>',
      blocks: [
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'a',
              text: { type: 'plain_text', text: 'x' },
              value: '{}',
            },
          ],
        },
      ],
    };
    const found = problemsOf({ name: 'forged', message: forged });
    expect(found.some((p) => p.includes('markup <!channel'))).toBe(true);
    expect(found.some((p) => p.includes('button a'))).toBe(true);
  });
});

describe('every sandbox record renders safely', () => {
  it('item cards: best and all branches, with and without a BOM path, private and shared', () => {
    const { checked, problems } = sweep(itemCards(items));
    const full = items.filter((item, i) => i % EVERY === 0 || extremeItems.has(item.code)).length;
    expect(checked).toBe(items.length * 2 + full * 8);
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('contact cards on every people page, shared or not, with and without Reveal; reveals', () => {
    const { checked, problems } = sweep(contactCards(contacts));
    expect(checked).toBeGreaterThan(contacts.length * 5);
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('item search pages over every item', () => {
    const { checked, problems } = sweep(itemSearchPages());
    expect(checked).toBe(Math.ceil(items.length / 10) + Math.ceil(items.length / 25));
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('contact search pages over every contact, redacted', () => {
    const { checked, problems } = sweep(contactSearchPages());
    expect(checked).toBe(Math.ceil(contacts.length / 10) + Math.ceil(contacts.length / 25));
    expect(problems.slice(0, 20)).toEqual([]);
  });

  it('shortcut answers over every item', () => {
    const { checked, problems } = sweep(shortcutAnswers());
    expect(checked).toBe(Math.ceil(items.length / 5));
    expect(problems.slice(0, 20)).toEqual([]);
  });
});
