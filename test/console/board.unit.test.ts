import { describe, expect, it } from 'vitest';
import { Board } from '../../src/console/board.js';

function makeBoard(json = false) {
  const lines: string[] = [];
  const board = new Board({ write: (text) => lines.push(text), color: false, json });
  return { board, output: () => lines.join('') };
}

const card = (title: string) => ({
  text: title,
  blocks: [
    { type: 'section', text: { type: 'mrkdwn', text: title } },
    {
      type: 'actions',
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Refresh' }, action_id: 'r' }],
    },
  ],
});

describe('Board (what the fake Slack does with replies)', () => {
  it('lets a response_url be used five times, like Slack, then refuses it', () => {
    const { board, output } = makeBoard();
    const key = board.newResponseUrlKey();
    for (let use = 1; use <= 5; use += 1) {
      expect(board.respond(key, { text: `answer ${use}` })).toEqual({ ok: true });
    }
    expect(board.respond(key, { text: 'sixth' })).toEqual({
      ok: false,
      status: 404,
      error: 'used_url',
    });
    expect(output()).not.toContain('sixth');
    expect(output()).toContain('more than 5 times');
  });

  it('refuses unknown response_urls and messages without text or blocks', () => {
    const { board } = makeBoard();
    expect(board.respond('nope', { text: 'x' })).toMatchObject({ ok: false, status: 404 });
    const key = board.newResponseUrlKey();
    expect(board.respond(key, { response_type: 'in_channel' })).toMatchObject({
      ok: false,
      status: 400,
      error: 'no_text',
    });
  });

  it('does not let a slash command reply replace or delete anything', () => {
    const { board, output } = makeBoard();
    board.respond(board.newResponseUrlKey(), card('first'));
    const key = board.newResponseUrlKey();
    board.respond(key, { replace_original: true, ...card('second') });
    board.respond(key, { delete_original: true });
    expect(output()).not.toContain('message updated');
    expect(output()).toContain('delete_original is not supported for slash commands');
    expect(board.lastWithButtons()?.text).toBe('second');
  });

  it('keeps a replaced message’s visibility even when the reply says in_channel', () => {
    const { board, output } = makeBoard();
    board.respond(board.newResponseUrlKey(), card('first'));
    const source = board.lastWithButtons();
    const click = board.newResponseUrlKey(source?.ts);
    board.respond(click, {
      replace_original: true,
      response_type: 'in_channel',
      ...card('page 2'),
    });
    expect(output()).toContain('── message updated · only visible to you ──\npage 2');
    expect(board.lastMessage()).toMatchObject({ ts: source?.ts, text: 'page 2', ephemeral: true });
  });

  it('applies chat.update and chat.delete to the message with that ts', () => {
    const { board, output } = makeBoard();
    const { ts } = board.post({ channel: 'DCONSOLE', ...card('posted') }, false);
    expect(board.update({ channel: 'DCONSOLE', ts, text: 'edited' })).toBe(true);
    expect(output()).toContain('── message updated · shared to channel ──\nedited');
    expect(board.remove('DCONSOLE', ts)).toBe(true);
    expect(board.remove('DCONSOLE', ts)).toBe(false);
    expect(board.lastMessage()).toBeUndefined();
  });

  it('in JSON mode prints each message’s exact text and blocks', () => {
    const { board, output } = makeBoard(true);
    board.respond(board.newResponseUrlKey(), card('a &amp; b'));
    expect(JSON.parse(output())).toEqual(card('a &amp; b'));
  });
});
