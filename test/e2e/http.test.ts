/**
 * End to end through Bolt's real HTTP receiver: signed, form-encoded requests as Slack sends
 * them; the sandbox ERP over HTTP; a fake Slack capturing response_url posts and Web API calls.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION } from '../../src/views/actions.js';
import { checkMessageLimits } from '../../src/views/blocks.js';
import { type RunningApp, SIGNING_SECRET, startApp } from '../helpers/app.js';
import { buttonLabelled, buttonsOf, textOf } from '../helpers/blocks.js';
import {
  blockActionsPayload,
  interactionForm,
  messageShortcutPayload,
  postToSlackApp,
  slashCommandForm,
} from '../helpers/slack/index.js';

type Message = { text?: string; blocks?: unknown[]; [key: string]: unknown };

let run: RunningApp;

beforeAll(async () => {
  run = await startApp({
    sandbox: { faults: { latencyMs: 20 } },
    slack: { users: { UGUEST01: { is_restricted: true }, UMEMBER02: {} } },
  });
});
afterAll(async () => {
  await run?.stop();
});

const command = (name: string, text: string) => run.command(name, text);

/** Clicks a button (acknowledged within `ACK_TIMEOUT_MS`). Returns the response_url. */
async function click(
  actionId: string,
  value: string,
  options: { isEphemeral?: boolean; userId?: string; messageBlocks?: unknown[] } = {},
) {
  const { reply, responseUrl } = await run.click(actionId, value, options);
  expect(reply.status).toBe(200);
  return responseUrl;
}

function expectWithinLimits(message: Message) {
  expect(
    checkMessageLimits({ text: message.text ?? '', blocks: (message.blocks ?? []) as never }),
  ).toEqual([]);
}

describe('slash commands over HTTP', () => {
  it('answers /stock WIDGET-9 with the item card on the acknowledgement itself', async () => {
    const { reply, ack } = await command('/stock', 'WIDGET-9');
    expect(reply.status).toBe(200);
    expect(ack?.response_type).toBe('ephemeral');
    expect(textOf(ack ?? {})).toContain('WIDGET-9');
    for (const word of ['Refresh', 'Share to channel', 'Watch…']) buttonLabelled(ack ?? {}, word);
    expectWithinLimits(ack ?? {});
  });

  it('refuses a request whose signature does not verify, before any ERP call', async () => {
    const before = run.sandbox.stats().requests.getItem ?? 0;
    const body = slashCommandForm({
      command: '/stock',
      text: 'WIDGET-9',
      response_url: run.slack.responseUrl(),
    });
    const forged = await postToSlackApp(run.eventsUrl, body, {
      signingSecret: SIGNING_SECRET,
      badSignature: true,
    });
    const unsigned = await postToSlackApp(run.eventsUrl, body, {
      signingSecret: SIGNING_SECRET,
      unsigned: true,
    });
    const stale = await postToSlackApp(run.eventsUrl, body, {
      signingSecret: SIGNING_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expect([forged.status, unsigned.status, stale.status]).toEqual([401, 401, 401]);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(before);
  });

  it('answers help with usage and examples from the sandbox', async () => {
    const { ack } = await command('/stock', 'help');
    const text = textOf(ack ?? {});
    expect(text).toContain('/stock');
    expect(text).toContain('category:');
    expect(text).toContain('WIDGET-9');
  });

  it('turns a bad filter into a helpful message, not an error', async () => {
    const { reply, ack } = await command('/stock', 'widget category:abc');
    expect(reply.status).toBe(200);
    expect(textOf(ack ?? {})).toMatch(/category/i);
  });

  it('pages a search without a new upstream search, replacing the list in place', async () => {
    const { ack } = await command('/stock', 'widget');
    const list = ack ?? {};
    expect(buttonsOf(list).some((b) => b.text.includes('View'))).toBe(true);
    const searches = run.sandbox.stats().requests.searchItems ?? 0;
    const next = buttonLabelled(list, 'Next');
    expect(next.action_id).toBe(ACTION.itemNextPage);
    const url = await click(next.action_id, next.value ?? '');
    const [page2] = await run.slack.waitForResponses(url, 1);
    expect(page2?.body.replace_original).toBe(true);
    buttonLabelled(page2?.body ?? {}, 'Previous');
    expect(run.sandbox.stats().requests.searchItems ?? 0).toBe(searches);
    expectWithinLimits(page2?.body ?? {});
  });

  it('opens a card from a list with View as a new ephemeral message', async () => {
    const { ack } = await command('/stock', 'widget');
    const view = buttonLabelled(ack ?? {}, 'View');
    const url = await click(view.action_id, view.value ?? '');
    const [card] = await run.slack.waitForResponses(url, 1);
    expect(card?.body.replace_original).toBe(false);
    expect(card?.body.response_type).toBe('ephemeral');
    buttonLabelled(card?.body ?? {}, 'Refresh');
  });

  it('shows the bill of materials in place, then drills into a sub-assembly with Expand', async () => {
    const { ack } = await command('/stock', 'WIDGET-9');
    const open = buttonLabelled(ack ?? {}, 'Bill of materials (4)');
    const openUrl = await click(open.action_id, open.value ?? '');
    const [bom] = await run.slack.waitForResponses(openUrl, 1);
    expect(bom?.body.replace_original).toBe(true);
    buttonLabelled(bom?.body ?? {}, 'Back');
    const expand = buttonLabelled(bom?.body ?? {}, 'Expand');
    const url = await click(expand.action_id, expand.value ?? '');
    const [sub] = await run.slack.waitForResponses(url, 1);
    expect(sub?.body.replace_original).toBe(true);
    expect(textOf(sub?.body ?? {})).toContain('WIDGET-9');
    expectWithinLimits(sub?.body ?? {});
  });

  it('pages a long bill of materials in place, from the cache', async () => {
    const { ack } = await command('/stock', 'PLANT-88');
    const calls = run.sandbox.stats().requests.getItem ?? 0;
    const open = buttonLabelled(ack ?? {}, 'Bill of materials (86)');
    const [bom] = await run.slack.waitForResponses(
      await click(open.action_id, open.value ?? ''),
      1,
    );
    expect(textOf(bom?.body ?? {})).toContain('1–5 of 86');
    const next = buttonLabelled(bom?.body ?? {}, 'Next components');
    const url = await click(next.action_id, next.value ?? '');
    const [page2] = await run.slack.waitForResponses(url, 1);
    expect(page2?.body.replace_original).toBe(true);
    expect(textOf(page2?.body ?? {})).toContain('6–10 of 86');
    buttonLabelled(page2?.body ?? {}, 'Previous components');
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(calls);
    expectWithinLimits(page2?.body ?? {});
  });

  it('shows every branch with All branches, and Refresh calls the ERP again', async () => {
    const { ack } = await command('/stock', 'WIDGET-9');
    const all = buttonLabelled(ack ?? {}, 'All branches');
    const allUrl = await click(all.action_id, all.value ?? '');
    const [allBranches] = await run.slack.waitForResponses(allUrl, 1);
    expect(allBranches?.body.replace_original).toBe(true);
    const widget = run.sandbox.data.items.find((i) => i.record.code === 'WIDGET-9')?.record;
    const allText = textOf(allBranches?.body ?? {});
    for (const branch of widget?.branches ?? []) expect(allText).toContain(branch.name);

    const before = run.sandbox.stats().requests.getItem ?? 0;
    const refresh = buttonLabelled(ack ?? {}, 'Refresh');
    const refreshUrl = await click(refresh.action_id, refresh.value ?? '');
    const [fresh] = await run.slack.waitForResponses(refreshUrl, 1);
    expect(fresh?.body.replace_original).toBe(true);
    expect(run.sandbox.stats().requests.getItem ?? 0).toBe(before + 1);
  });

  it('falls back to a search when the code does not exist', async () => {
    const { ack } = await command('/stock', 'widget-9');
    // Codes differ only in case: the search's top result matches ignoring case, so the card opens.
    expect(textOf(ack ?? {})).toContain('WIDGET-9');
    const missing = await command('/stock', 'NO-SUCH-CODE-777');
    expect(textOf(missing.ack ?? {})).toMatch(/Nothing found:\* no item has the code/);
    const missingId = await command('/stock', '#99999999');
    expect(textOf(missingId.ack ?? {})).toMatch(/No item has the internal id 99999999/);
  });

  it('answers a forged or stale button value with a clear message', async () => {
    for (const value of [
      '{"v":0,"t":"i","r":{"c":"X"}}',
      'not json',
      'x'.repeat(5000),
      '{"v":1,"t":"zz"}',
    ]) {
      const url = await click(ACTION.itemRefresh, value);
      const [answer] = await run.slack.waitForResponses(url, 1);
      expect(answer?.body.replace_original).toBe(false);
      expect(textOf(answer?.body ?? {})).toMatch(/out of date/);
    }
  });
});

describe('contacts, reveal and sharing over HTTP', () => {
  it('shows a redacted contact card and reveals details only to the clicker', async () => {
    const { ack } = await command('/contact', 'ACME01');
    const card = ack ?? {};
    const contact = run.sandbox.data.contacts.find((c) => c.record.code === 'ACME01')?.record;
    expect(contact).toBeDefined();
    const text = textOf(card);
    for (const person of contact?.addressbook ?? []) {
      if (person.email) expect(text).not.toContain(person.email);
      if (person.mobile.length > 4) expect(text).not.toContain(person.mobile);
    }
    const reveal = buttonLabelled(card, 'Reveal');
    const url = await click(reveal.action_id, reveal.value ?? '');
    const [revealed] = await run.slack.waitForResponses(url, 1);
    expect(revealed?.body.response_type).toBe('ephemeral');
    expect(revealed?.body.replace_original).toBe(false);
    const withEmail = contact?.addressbook.find((p) => p.email);
    if (withEmail) expect(textOf(revealed?.body ?? {})).toContain(withEmail.email);
    const audit = run.logLines
      .map((l) => JSON.parse(l))
      .filter((l) => l.event === 'contact_reveal');
    expect(audit.at(-1)).toMatchObject({ outcome: 'revealed', contactCode: 'ACME01' });
  });

  it('on a card shared to the channel, reveals to a member and refuses a guest, privately', async () => {
    const { ack } = await command('/contact', 'ACME01');
    const share = buttonLabelled(ack ?? {}, 'Share to channel');
    const shareUrl = await click(share.action_id, share.value ?? '');
    const [posted] = await run.slack.waitForResponses(shareUrl, 1);
    expect(posted?.body.response_type).toBe('in_channel');
    const sharedBlocks = posted?.body.blocks as unknown[];
    const reveal = buttonLabelled(posted?.body ?? {}, 'Reveal');
    const email = run.sandbox.data.contacts
      .find((c) => c.record.code === 'ACME01')
      ?.record.addressbook.find((p) => p.email)?.email;

    const answers: Record<string, Message> = {};
    for (const userId of ['UGUEST01', 'UMEMBER02']) {
      const url = await click(reveal.action_id, reveal.value ?? '', {
        userId,
        isEphemeral: false,
        messageBlocks: sharedBlocks,
      });
      const [answer] = await run.slack.waitForResponses(url, 1);
      expect(answer?.body.response_type).toBe('ephemeral');
      expect(answer?.body.replace_original).toBe(false);
      answers[userId] = answer?.body ?? {};
    }
    expect(textOf(answers.UGUEST01 ?? {})).toMatch(/guest/i);
    expect(textOf(answers.UGUEST01 ?? {})).not.toContain(email);
    expect(textOf(answers.UMEMBER02 ?? {})).toContain(email);
    const audit = run.logLines
      .map((l) => JSON.parse(l))
      .filter((l) => l.event === 'contact_reveal')
      .slice(-2);
    expect(audit.map((l) => [l.userId, l.outcome])).toEqual([
      ['UGUEST01', 'refused'],
      ['UMEMBER02', 'revealed'],
    ]);
  });

  it('shares a card to the channel redacted, and confirms to the user', async () => {
    const { ack } = await command('/contact', 'ACME01');
    const share = buttonLabelled(ack ?? {}, 'Share to channel');
    const url = await click(share.action_id, share.value ?? '');
    const [posted, confirmation] = await run.slack.waitForResponses(url, 2);
    expect(posted?.body.response_type).toBe('in_channel');
    expect(buttonsOf(posted?.body ?? {}).map((b) => b.text)).not.toContain('Share to channel');
    const contact = run.sandbox.data.contacts.find((c) => c.record.code === 'ACME01')?.record;
    const sharedText = textOf(posted?.body ?? {});
    for (const secret of [
      contact?.email,
      contact?.telephone,
      ...(contact?.addressbook ?? []).flatMap((p) => [p.email, p.email2, p.mobile, p.telephone]),
    ]) {
      if (secret && secret.length > 4) expect(sharedText).not.toContain(secret);
    }
    expect(confirmation?.body.replace_original).toBe(true);
  });

  it('falls back to chat.postMessage, then tells the user when it cannot post', async () => {
    const { ack } = await command('/stock', 'WIDGET-9');
    const share = buttonLabelled(ack ?? {}, 'Share to channel');
    const url = run.slack.responseUrl();
    run.slack.expireResponseUrl(url);
    const payload = blockActionsPayload({
      actionId: share.action_id,
      value: share.value ?? '',
      responseUrl: url,
    });
    await postToSlackApp(run.eventsUrl, interactionForm(payload), {
      signingSecret: SIGNING_SECRET,
    });
    const [call] = await run.slack.waitForCalls('chat.postMessage', 1);
    expect(call?.args.channel).toBeDefined();

    run.slack.setFailure('chat.postMessage', 'not_in_channel');
    try {
      const url2 = run.slack.responseUrl();
      run.slack.expireResponseUrl(url2);
      const payload2 = blockActionsPayload({
        actionId: share.action_id,
        value: share.value ?? '',
        responseUrl: url2,
      });
      await postToSlackApp(run.eventsUrl, interactionForm(payload2), {
        signingSecret: SIGNING_SECRET,
      });
      await run.slack.waitForCalls('chat.postMessage', 2);
    } finally {
      run.slack.setFailure('chat.postMessage', undefined);
    }
  });
});

describe('message shortcut and operations', () => {
  it('looks up the item codes found in a message', async () => {
    const responseUrl = run.slack.responseUrl();
    const payload = messageShortcutPayload({
      callbackId: 'stock_lookup_message',
      messageText: 'Can we ship *WIDGET-9* and NOPE-404 to <@U123ABC> today?',
      responseUrl,
    });
    const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
      signingSecret: SIGNING_SECRET,
    });
    expect(reply.status).toBe(200);
    const [answer] = await run.slack.waitForResponses(responseUrl, 1);
    const text = textOf(answer?.body ?? {});
    expect(text).toContain('WIDGET-9');
    expect(text).toContain('NOPE-404');
    buttonLabelled(answer?.body ?? {}, 'View');
  });

  it('answers the shortcut on a message of 40,000 characters, sent with its rich-text blocks', async () => {
    // Slack's longest message, in characters that cost 9 bytes each in the form (%E4%B8%AD),
    // and twice (`text` and `blocks`): about 720 KB, past the old 64 KiB cap.
    const top = 'Can we ship WIDGET-9 and BW-001 to Perth? ';
    const text = `${top}${'中'.repeat(40_000 - top.length)}`;
    const responseUrl = run.slack.responseUrl();
    const shortcut = messageShortcutPayload({
      callbackId: 'stock_lookup_message',
      messageText: text,
      responseUrl,
    }) as { message: object };
    const blocks = [
      {
        type: 'rich_text',
        block_id: 'AbC12',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text }] }],
      },
    ];
    const body = interactionForm({ ...shortcut, message: { ...shortcut.message, blocks } });
    expect(Buffer.byteLength(body)).toBeGreaterThan(700_000);
    const reply = await postToSlackApp(run.eventsUrl, body, { signingSecret: SIGNING_SECRET });
    expect(reply.status).toBe(200);
    const [answer] = await run.slack.waitForResponses(responseUrl, 1);
    const answered = textOf(answer?.body ?? {});
    expect(answered).toContain('WIDGET-9');
    expect(answered).toContain('BW-001');
  });

  it('serves /healthz and /metrics', async () => {
    const health = await request(`${run.baseUrl}/healthz`);
    expect(health.statusCode).toBe(200);
    expect(await health.body.json()).toMatchObject({ status: 'ok' });
    const metrics = await request(`${run.baseUrl}/metrics`);
    expect(metrics.statusCode).toBe(200);
    expect(await metrics.body.text()).toContain('erp_upstream_calls_total');
  });
});
