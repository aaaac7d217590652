/**
 * `function_executed` bodies for the workflow step "Look up stock": the constructed sample
 * (fixtures/function_executed_event_callback.json) with this app's step, fresh ids and the
 * inputs a test wants.
 */
import { readFileSync } from 'node:fs';
import { SLACK_DEFAULTS } from './payloads.js';

const FIXTURE = new URL('./fixtures/function_executed_event_callback.json', import.meta.url);

let runs = 0;

const param = (name: string, type: string, isRequired: boolean) => ({
  type,
  name,
  title: name,
  description: name,
  is_required: isRequired,
});

/** One run of `lookup_stock` with `inputs`, in its `event_callback` envelope. */
export function functionExecutedEnvelope(inputs: Record<string, unknown>) {
  runs += 1;
  const sample = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
    event: Record<string, unknown> & { function: Record<string, unknown> };
  } & Record<string, unknown>;
  const id = String(runs).padStart(4, '0');
  return {
    ...sample,
    team_id: SLACK_DEFAULTS.teamId,
    api_app_id: SLACK_DEFAULTS.apiAppId,
    event_id: `EvSTEP${Date.now()}${id}`,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      ...sample.event,
      function: {
        ...sample.event.function,
        app_id: SLACK_DEFAULTS.apiAppId,
        description: 'Available stock of an item',
        input_parameters: [
          param('item_code', 'string', true),
          param('quantity', 'integer', false),
          param('branch', 'string', false),
        ],
        output_parameters: [
          param('available', 'integer', true),
          param('on_order', 'integer', true),
          param('can_supply', 'boolean', true),
          param('split_possible', 'boolean', true),
          param('description', 'string', true),
          param('summary', 'string', true),
        ],
      },
      inputs,
      function_execution_id: `FxSTEP${id}`,
      workflow_execution_id: `WxSTEP${id}`,
      bot_access_token: `xwfp-test-not-a-real-token-${id}`,
    },
    authorizations: [
      {
        enterprise_id: null,
        team_id: SLACK_DEFAULTS.teamId,
        user_id: SLACK_DEFAULTS.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
  };
}
