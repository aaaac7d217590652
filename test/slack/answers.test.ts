/**
 * Input the ERP client refuses before sending anything, answered end to end: the real client
 * under the real lookup service and answers, and a loopback ERP that must see no request.
 * The user is told the problem is with what they typed, never that the ERP refused it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErpClient } from '../../src/erp/client.js';
import { createLogger } from '../../src/log/logger.js';
import { createMetrics } from '../../src/lookup/metrics.js';
import { createLookupService } from '../../src/lookup/service.js';
import type { LookupService } from '../../src/lookup/types.js';
import { itemCardAnswer, itemSearchAnswer, safely } from '../../src/slack/answers.js';
import type { ListenerDeps } from '../../src/slack/deps.js';
import { makeClient } from '../erp/helpers/client-factory.js';
import { fixture, json, TestErpServer } from '../erp/helpers/test-erp-server.js';
import { listenerDeps } from '../helpers/listenerDeps.js';
import { fakeSlack } from '../privacy/fakes.js';
import { allText } from '../views/inspect.js';

const logger = createLogger({ level: 'silent' });
const actor = { userId: 'U1', teamId: 'T1', channelId: 'C1' };
const slack = fakeSlack().client;

let server: TestErpServer;
let erp: ErpClient;
let lookup: LookupService;
let deps: ListenerDeps;

beforeAll(async () => {
  server = await TestErpServer.start();
  server.answer((_request, response) => json(response, 200, fixture('item-widget-9.json')));
  erp = makeClient(server.baseUrl);
  lookup = createLookupService({
    erp,
    ttlMs: 60_000,
    contactTtlMs: 30_000,
    maxBytes: 1024 * 1024,
    // One call a window: a refusal that spent it would leave the next lookup waiting.
    limits: { getPerMinute: 1, searchPerMinute: 1 },
    fairShareReserve: 0,
    queueMaxWaitMs: 1_000,
    logger,
    metrics: createMetrics(),
  });
  deps = listenerDeps(lookup, logger);
});
afterAll(async () => {
  await lookup.close();
  await erp.close();
  await server.close();
});

describe('input the ERP client refuses before calling the ERP', () => {
  it('words a code that cannot go in a URL as a problem with the code, not the ERP refusing', async () => {
    // A lone surrogate: Slack's input cleaning removes these, but any other caller may not.
    const message = await safely(deps.logger, 'item card', () =>
      itemCardAnswer(deps, { ref: { code: 'WIDGET-\uD800' } }, actor, slack),
    );
    const text = allText(message);
    expect(message.text).toContain(
      'That is not a code or id that can be looked up; check it and try again.',
    );
    expect(text).not.toMatch(/ERP/);
    expect(server.requests).toHaveLength(0);
  });

  it('words search words that cannot be sent as a problem with the words', async () => {
    const message = await safely(deps.logger, 'item search', () =>
      itemSearchAnswer(deps, { words: ['\uDC00'] }, 0, actor),
    );
    expect(message.text).toContain(
      'Those search words contain characters that cannot be searched for; retype them and try again.',
    );
    expect(allText(message)).not.toMatch(/ERP/);
    expect(server.requests).toHaveLength(0);
  });

  it('spends no budget on a refusal: the next lookup goes at once', async () => {
    await safely(deps.logger, 'item card', () =>
      itemCardAnswer(deps, { ref: { code: 'AB\uD800' } }, actor, slack),
    );
    expect(lookup.expectedWaitMs('getItem')).toBe(0);
    const message = await safely(deps.logger, 'item card', () =>
      itemCardAnswer(deps, { ref: { code: 'WIDGET-9' } }, actor, slack),
    );
    expect(message.text).toContain('WIDGET-9');
    expect(server.requests).toHaveLength(1);
  });
});
