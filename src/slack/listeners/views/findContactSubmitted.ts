/**
 * The Find contact modal's submission: the contact search runs now (never as you type:
 * contact searches have a small budget). The modal says the search is under way at once, and
 * the answer comes as a message from the app, which only the user sees and where the card's
 * buttons (Reveal, people pages) work as usual.
 */
import { z } from 'zod';
import { checkAccess } from '../../../privacy/access.js';
import {
  commandNoticeText,
  commandProblemText,
  commandRetry,
  withNotices,
} from '../../../views/feedback.js';
import {
  FIND_CONTACT,
  FIND_CONTACT_ERRORS,
  findContactSearchingModal,
} from '../../../views/findContactModal.js';
import { safely } from '../../answers.js';
import { sendDirect } from '../../delivery.js';
import type { ContactDeps, DeliveryDeps } from '../../deps.js';
import { sanitizeInput } from '../../input.js';
import { Submission, type SubmitArgs } from '../../modals.js';
import { type ContactLookup, parseContactCommand } from '../../parser.js';
import { userActor } from '../../payloads.js';
import { contactAnswer } from '../commands/contact.js';

const TextInput = z.object({ value: z.string().max(3000).nullish() });

const MAX_TEXT = 200;

export function findContactSubmitted(deps: DeliveryDeps & ContactDeps) {
  return async ({ body, ack, client }: SubmitArgs): Promise<void> => {
    const parsed = Submission.safeParse(body);
    if (!parsed.success) {
      await ack();
      return;
    }
    const { user } = parsed.data;
    const input = TextInput.safeParse(
      parsed.data.view.state.values[FIND_CONTACT.textBlock]?.[FIND_CONTACT.textAction],
    );
    const text = sanitizeInput(input.success ? (input.data.value ?? '') : '', MAX_TEXT).text;
    const refuse = (message: string) =>
      ack({ response_action: 'errors', errors: { [FIND_CONTACT.textBlock]: message } });
    const request = parseContactCommand(text);
    if (!request.ok) {
      await refuse(commandProblemText(request.error));
      return;
    }
    if (request.request.kind === 'help') {
      await refuse(FIND_CONTACT_ERRORS.empty);
      return;
    }
    const actor = userActor(user);
    const access = checkAccess(deps.access.contact, actor, '/contact');
    if (!access.allowed) {
      deps.logger.info({ user: actor.userId, reason: access.reason }, 'Find contact refused');
      await refuse(access.message);
      return;
    }
    await ack({ response_action: 'update', view: findContactSearchingModal({ text }) });
    const notices = request.notices.map(commandNoticeText);
    // The ERP down or busy: Try again asks the same as `/contact` text (commandRetry.ts), in
    // place of the failure in the app's direct message.
    const answer = await safely(
      deps.logger,
      'Find contact',
      async () =>
        withNotices(
          await contactAnswer(deps, request.request as ContactLookup, actor, client),
          notices,
        ),
      commandRetry('contact', text),
    );
    await sendDirect(deps.logger, client, user.id, answer, 'could not send a Find contact answer');
  };
}
