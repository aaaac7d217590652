/**
 * The search modal's "Share to channel" submission as Slack sends it (a view_submission whose
 * conversation select has `response_url_enabled`), signed and posted to a running app.
 */
import { expect } from 'vitest';
import { type RunningApp, SIGNING_SECRET } from '../../helpers/app.js';
import { interactionForm, postToSlackApp } from '../../helpers/slack/index.js';
import { viewSubmissionPayload } from '../../helpers/slack/searchPayloads.js';

export interface SearchShare {
  code: string;
  channel?: string;
  audience?: 'everyone' | 'me';
  viewId?: string;
  /** The submission's response_url for the chosen conversation; a fresh one by default. */
  url?: string;
  userId?: string;
}

/** The submission, and the response_url it carries for the chosen conversation. */
export function searchShareSubmission(run: RunningApp, o: SearchShare) {
  const payload = viewSubmissionPayload({
    view: {
      id: o.viewId ?? `V${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
      callback_id: 'stock_search_modal',
      private_metadata: JSON.stringify({ code: o.code }),
    },
    values: {
      stock_search_share: {
        stock_search_conversation: {
          type: 'conversations_select',
          selected_conversation: o.channel ?? null,
        },
      },
      stock_search_audience: {
        stock_search_audience_choice: {
          type: 'radio_buttons',
          selected_option: { value: o.audience ?? 'everyone' },
        },
      },
    },
  });
  const responseUrl = o.url ?? run.slack.responseUrl();
  const user = o.userId ? { ...payload.user, id: o.userId } : payload.user;
  return {
    payload: {
      ...payload,
      user,
      response_urls: o.channel
        ? [
            {
              block_id: 'stock_search_share',
              action_id: 'stock_search_conversation',
              channel_id: o.channel,
              response_url: responseUrl,
            },
          ]
        : [],
    },
    responseUrl,
  };
}

/** Posts a submission, signed; Slack's request must be answered 200. */
export async function submitSearchShare(
  run: RunningApp,
  payload: object,
  headers: Record<string, string> = {},
) {
  const reply = await postToSlackApp(run.eventsUrl, interactionForm(payload), {
    signingSecret: SIGNING_SECRET,
    headers,
  });
  expect(reply.status).toBe(200);
  return reply;
}
