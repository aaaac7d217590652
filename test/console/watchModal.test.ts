/**
 * The Watch… modal in the console, with the real app on the sandbox ERP: pressing Watch… on a
 * card draws the modal (the console's own views.open accepts the trigger id it generated), its
 * fields can be filled in and it submits as a view_submission; a field the app refuses is
 * said, and the modal stays open until it is right.
 */
import { describe, expect, it } from 'vitest';
import { ModalDesk } from '../../src/console/modal.js';
import { sandboxConsole } from './consoleSession.js';

const session = sandboxConsole();

/** The number of the card's Watch… button, as the console draws it. */
async function watchButton(): Promise<string> {
  const { text } = await session(['/stock WIDGET-9']);
  const number = /\[(\d+)\] Watch…/.exec(text)?.[1];
  if (!number) throw new Error(`no Watch… button on the card:\n${text}`);
  return number;
}

describe('the Watch… modal in the console', () => {
  it('draws the modal, takes its fields, refuses a missing threshold, then submits', async () => {
    const watch = await watchButton();
    const { code, text } = await session([
      '/stock WIDGET-9',
      watch,
      'submit',
      'fill 2 -5',
      'fill 2 7',
      'fill 1 2',
      'fill 3 Perth',
      'submit',
      '/stock watches',
    ]);
    expect(code).toBe(0);
    expect(text).toContain('── modal: Watch stock ──');
    expect(text).toMatch(/\[1\] Tell the channel when available: falls below/);
    expect(text).toMatch(/\[2\] Threshold: _/);
    expect(text).toContain('[4] Channel to tell: DCONSOLE');
    // Submitted empty: refused as Slack refuses a required field; the modal stays open.
    expect(text).toContain('field 2: This field is required.');
    // Below the input's min_value: refused as Slack refuses it.
    expect(text).toContain('Field 2 takes a number from 0.');
    expect(text).toMatch(/\[1\] Tell the channel when available: rises to or above/);
    expect(text).toContain('Modal submitted and closed.');
    // The watch exists: /stock watches lists it.
    expect(text).toMatch(/WIDGET-9`? at Perth: 7 or more/);
  });

  it('says what a field takes, and that there is no modal once cancelled', async () => {
    const watch = await watchButton();
    const { text } = await session([
      '/stock WIDGET-9',
      watch,
      'fill 1 sideways',
      'cancel',
      'submit',
    ]);
    expect(text).toContain('Field 1 takes one of: 1) falls below  2) rises to or above.');
    expect(text).toContain('Modal closed.');
    expect(text).toContain('No modal is open.');
  });
});

describe('ModalDesk', () => {
  it('shows the app’s field errors and keeps the modal open; an empty ack closes it', () => {
    let written = '';
    const desk = new ModalDesk({ write: (t) => (written += t), color: false });
    desk.show({
      id: 'V1',
      type: 'modal',
      title: { type: 'plain_text', text: 'Watch stock' },
      blocks: [
        {
          type: 'input',
          block_id: 'b1',
          label: { type: 'plain_text', text: 'Threshold' },
          element: { type: 'number_input', action_id: 'a1', is_decimal_allowed: false },
        },
      ],
    });
    expect(desk.fill(1, '2.5')).toBe('Field 1 takes a whole number.');
    expect(desk.fill(1, '3')).toBeUndefined();
    const body = desk.submission() as { view: { state: { values: unknown } } };
    expect(body.view.state.values).toEqual({ b1: { a1: { type: 'number_input', value: '3' } } });
    expect(desk.acknowledged({ response_action: 'errors', errors: { b1: 'Too low.' } })).toBe(
      'errors',
    );
    expect(written).toContain('field 1: Too low.');
    expect(desk.isOpen).toBe(true);
    expect(desk.acknowledged(undefined)).toBe('closed');
    expect(desk.isOpen).toBe(false);
  });
});
