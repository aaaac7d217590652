/**
 * Payloads for the search modal and App Home, shaped like the samples in
 * test/helpers/slack/fixtures/ (global_shortcut, block_suggestion_modal, block_actions_modal_
 * external_select, view_submission_external_select, app_home_opened_event_callback).
 */
import { newTriggerId, SLACK_DEFAULTS, slackTsNow } from './payloads.js';

const user = (id = SLACK_DEFAULTS.userId) => ({
  id,
  username: SLACK_DEFAULTS.userName,
  name: SLACK_DEFAULTS.userName,
  team_id: SLACK_DEFAULTS.teamId,
});
const team = { id: SLACK_DEFAULTS.teamId, domain: SLACK_DEFAULTS.teamDomain };

export function globalShortcutPayload(callbackId: string) {
  return {
    type: 'shortcut',
    token: SLACK_DEFAULTS.verificationToken,
    action_ts: slackTsNow(),
    team,
    user: user(),
    is_enterprise_install: false,
    enterprise: null,
    callback_id: callbackId,
    trigger_id: newTriggerId(),
  };
}

/** The modal as Slack echoes it back in later payloads. */
export interface OpenView {
  id: string;
  hash?: string;
  private_metadata?: string;
  callback_id?: string;
  blocks?: unknown[];
}

function viewOf(view: OpenView, values: Record<string, unknown> = {}) {
  return {
    id: view.id,
    team_id: SLACK_DEFAULTS.teamId,
    type: 'modal',
    blocks: view.blocks ?? [],
    private_metadata: view.private_metadata ?? '',
    callback_id: view.callback_id ?? '',
    state: { values },
    hash: view.hash ?? '1760000000.FakeHash',
    title: { type: 'plain_text', text: 'Search stock' },
  };
}

export function blockSuggestionPayload(o: {
  view: OpenView;
  actionId: string;
  blockId: string;
  value: string;
  userId?: string;
}) {
  return {
    type: 'block_suggestion',
    user: user(o.userId),
    container: { type: 'view', view_id: o.view.id },
    api_app_id: SLACK_DEFAULTS.apiAppId,
    token: SLACK_DEFAULTS.verificationToken,
    action_id: o.actionId,
    block_id: o.blockId,
    value: o.value,
    team,
    enterprise: null,
    is_enterprise_install: false,
    view: viewOf(o.view),
  };
}

export function modalSelectPayload(o: {
  view: OpenView;
  actionId: string;
  blockId: string;
  type: 'external_select' | 'static_select';
  value: string;
}) {
  return {
    type: 'block_actions',
    user: user(),
    api_app_id: SLACK_DEFAULTS.apiAppId,
    token: SLACK_DEFAULTS.verificationToken,
    container: { type: 'view', view_id: o.view.id },
    trigger_id: newTriggerId(),
    team,
    enterprise: null,
    is_enterprise_install: false,
    view: viewOf(o.view),
    actions: [
      {
        type: o.type,
        action_id: o.actionId,
        block_id: o.blockId,
        selected_option: { text: { type: 'plain_text', text: o.value }, value: o.value },
        action_ts: slackTsNow(),
      },
    ],
  };
}

export function viewSubmissionPayload(o: { view: OpenView; values: Record<string, unknown> }) {
  return {
    type: 'view_submission',
    team,
    user: user(),
    api_app_id: SLACK_DEFAULTS.apiAppId,
    token: SLACK_DEFAULTS.verificationToken,
    trigger_id: newTriggerId(),
    view: viewOf(o.view, o.values),
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}

export function appHomeOpenedEnvelope(userId = SLACK_DEFAULTS.userId) {
  return {
    token: SLACK_DEFAULTS.verificationToken,
    team_id: SLACK_DEFAULTS.teamId,
    api_app_id: SLACK_DEFAULTS.apiAppId,
    event: {
      type: 'app_home_opened',
      user: userId,
      channel: 'D0FAKEHOME',
      tab: 'home',
      event_ts: slackTsNow(),
    },
    type: 'event_callback',
    event_id: `Ev${Date.now()}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: SLACK_DEFAULTS.teamId,
        user_id: SLACK_DEFAULTS.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
}

/** Any Events API `event_callback` for this workspace (channel_archive, channel_deleted…). */
export function eventEnvelope(event: Record<string, unknown>) {
  return {
    token: SLACK_DEFAULTS.verificationToken,
    team_id: SLACK_DEFAULTS.teamId,
    api_app_id: SLACK_DEFAULTS.apiAppId,
    event: { event_ts: slackTsNow(), ...event },
    type: 'event_callback',
    event_id: `Ev${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: SLACK_DEFAULTS.teamId,
        user_id: SLACK_DEFAULTS.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
}
