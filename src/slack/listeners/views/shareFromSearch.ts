/**
 * The search modal's submit button "Share to channel". Slack is acknowledged first (the modal
 * closes at once), then the card is fetched and posted: a slow ERP can no longer make Slack
 * show "trouble connecting" and send the submission again. The conversation select has
 * `response_url_enabled`, so the card goes through the submission's response_url and sharing
 * works in channels the app is not in; chat.postMessage is the fallback. "Only me" is a direct
 * message from the app. Any failure is told to the user alone, never in the conversation.
 */
import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { checkAccess } from '../../../privacy/access.js';
import { conversationRefusal } from '../../../views/conversationRefusals.js';
import { errorMessage } from '../../../views/feedback.js';
import { outgoing } from '../../../views/format.js';
import type { SlackMessage } from '../../../views/message.js';
import { readSearchMetadata, SEARCH, SEARCH_ERRORS } from '../../../views/searchModal.js';
import { cannotShareMessage } from '../../../views/share.js';
import { alreadyShared, withSharedBy } from '../../../views/sharedBy.js';
import { itemCardAnswer, logFailure } from '../../answers.js';
import { sendDirect, sendSafely } from '../../delivery.js';
import type { DeliveryDeps, ItemDeps, MembersDeps, ShareDeps } from '../../deps.js';
import { ChannelId } from '../../ids.js';
import { Submission, type SubmitArgs } from '../../modals.js';
import { type Actor, slackErrorCode, userActor } from '../../payloads.js';

const ShareSubmission = Submission.extend({
  response_urls: z
    .array(z.object({ channel_id: ChannelId.optional(), response_url: z.string() }))
    .optional(),
});

const Conversation = z.object({ selected_conversation: ChannelId.nullish() });
const Radio = z.object({ selected_option: z.object({ value: z.string() }).nullish() });

type Deps = DeliveryDeps & ItemDeps & ShareDeps & MembersDeps;

interface Share {
  actor: Actor;
  /** The person's own workspace, kept with the share's record. */
  teamId: string | undefined;
  userId: string;
  code: string;
  channel: string | undefined;
  onlyMe: boolean;
  /** The submission's response_url for the chosen conversation, when Slack gave one. */
  respond: RespondFn | undefined;
}

export function shareFromSearch(deps: Deps) {
  return async ({ body, ack, client, respond, context }: SubmitArgs): Promise<void> => {
    const parsed = ShareSubmission.safeParse(body);
    if (!parsed.success) {
      await ack();
      return;
    }
    const { user, view } = parsed.data;
    const metadata = readSearchMetadata(view.private_metadata);
    if (!metadata.code) {
      await ack({
        response_action: 'errors',
        errors: { [SEARCH.itemBlock]: SEARCH_ERRORS.noItem },
      });
      return;
    }
    const values = view.state.values;
    const conversation = Conversation.safeParse(values[SEARCH.shareBlock]?.[SEARCH.shareAction]);
    const audience = Radio.safeParse(values[SEARCH.audienceBlock]?.[SEARCH.audienceAction]);
    const chosen = conversation.success ? conversation.data.selected_conversation : undefined;
    const onlyMe = audience.success && audience.data.selected_option?.value === 'me';
    // "Only me" needs no conversation: the card comes as a direct message from the app.
    const channel = onlyMe ? undefined : (chosen ?? undefined);
    if (!channel && !onlyMe) {
      await ack({
        response_action: 'errors',
        errors: { [SEARCH.shareBlock]: SEARCH_ERRORS.noConversation },
      });
      return;
    }
    const actor = userActor(user, channel);
    // The modal is /stock by another door: its rules hold for the conversation chosen too.
    const access = checkAccess(deps.access.stock, actor, '/stock');
    if (!access.allowed) {
      deps.logger.info({ user: actor.userId, reason: access.reason }, 'search modal share refused');
      await ack({ response_action: 'errors', errors: { [SEARCH.shareBlock]: access.message } });
      return;
    }
    await ack();
    const url = parsed.data.response_urls?.[0];
    // Bolt gives respond() only when the submission carried response_urls.
    const given = respond as RespondFn | undefined;
    const viaUrl = channel && given && url?.channel_id === channel ? given : undefined;
    const request: Share = {
      actor,
      teamId: user.team_id,
      userId: user.id,
      code: metadata.code,
      channel,
      onlyMe,
      respond: viaUrl,
    };
    // One item from one modal into one conversation is shared once, whatever is pressed or sent
    // again (x-slack-retry-num), on any replica.
    const press = ['search', user.id, view.id, metadata.code, channel ?? 'me'];
    if (!(await deps.shares.firstPress(press))) {
      const retryNum = context.retryNum ?? 0;
      // Slack sending the submission again is no press of the person's: the first one answers.
      if (retryNum > 0) {
        deps.logger.info(
          { retry: retryNum },
          'search modal share sent again by Slack: left to the first',
        );
        return;
      }
      deps.logger.info('search modal share submitted again: already under way');
      await tellPrivately(deps, client, request, alreadyShared(channel ?? 'me'));
      return;
    }
    // The conversation is the person's choice: they must be in it, and so must the app.
    if (channel) {
      const may = await deps.members.mayPost(client, channel, user.id, context.botUserId);
      if (!may.ok) {
        await deps.shares.release(press);
        deps.logger.info(
          { reason: may.reason },
          'search modal share: not a conversation of theirs',
        );
        await sendDirect(
          deps.logger,
          client,
          user.id,
          conversationRefusal(may.reason),
          'could not tell the user privately',
        );
        return;
      }
    }
    if (!(await share(deps, client, request))) await deps.shares.release(press);
  };
}

/** True when the card was delivered. */
async function share(deps: Deps, client: WebClient, request: Share): Promise<boolean> {
  let card: SlackMessage;
  try {
    card = await itemCardAnswer(
      deps,
      { ref: { code: request.code }, shared: !request.onlyMe },
      request.actor,
      client,
    );
  } catch (error) {
    logFailure(deps.logger, 'search modal share', error);
    await tellPrivately(deps, client, request, errorMessage(error));
    return false;
  }
  if (request.onlyMe || !request.channel) {
    await sendDirect(deps.logger, client, request.userId, card, 'could not send the card');
    return true;
  }
  const shareId = deps.shares.newId();
  const message = withSharedBy(card, request.userId, shareId);
  const record = { sharer: request.userId, team: request.teamId, channel: request.channel };
  if (
    request.respond &&
    (await sendSafely(deps.logger, request.respond, {
      response_type: 'in_channel',
      ...outgoing(message),
    }))
  ) {
    await deps.shares.save(shareId, record);
    return true;
  }
  try {
    const posted = await client.chat.postMessage({
      channel: request.channel,
      ...outgoing(message),
    });
    await deps.shares.save(shareId, { ...record, ts: posted.ts });
    return true;
  } catch (error) {
    const reason = slackErrorCode(error) ?? 'error';
    deps.logger.warn({ reason, channel: request.channel }, 'could not share from the search modal');
    await tellPrivately(deps, client, request, cannotShareMessage(reason));
    return false;
  }
}

/**
 * To the user alone: an ephemeral message in the chosen conversation (through its
 * response_url, else chat.postEphemeral), else a direct message from the app.
 */
async function tellPrivately(
  deps: Deps,
  client: WebClient,
  request: Share,
  message: SlackMessage,
): Promise<void> {
  const { text, blocks } = message;
  if (
    request.respond &&
    (await sendSafely(deps.logger, request.respond, { response_type: 'ephemeral', text, blocks }))
  ) {
    return;
  }
  if (request.channel) {
    try {
      await client.chat.postEphemeral({
        channel: request.channel,
        user: request.userId,
        text,
        blocks,
      });
      return;
    } catch {
      // Not in that channel either: the direct message below still reaches the user.
    }
  }
  await sendDirect(
    deps.logger,
    client,
    request.userId,
    message,
    'could not tell the user privately',
  );
}
