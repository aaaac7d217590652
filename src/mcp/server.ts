/**
 * The MCP server Slackbot's MCP client calls (the official SDK's `McpServer`): four read-only
 * tools, each declaring Slack's Block Kit support (`_meta.slack.supportsBlockKit`) and
 * answering with its text and, in `_meta.slack.blocks`, the card's blocks. Built anew for
 * every request (stateless: nothing is kept between calls, so any replica answers any call).
 *
 * Slack advertises its Block Kit extension (`io.slack/block-kit`) at `initialize`; a
 * stateless server never sees that request again when a tool is called, so every result
 * carries its blocks, as Slack's own samples do. A client that does not know Slack's `_meta`
 * ignores them, and they are the shared form of the card, no more than the text allows.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { SlackUsersApi } from '../privacy/revealPolicy.js';
import { MAX_WORD_LENGTH, sanitizeInput } from '../slack/input.js';
import type { Actor } from '../slack/payloads.js';
import { noSlackUserToolText } from '../views/tools.js';
import { actorOfCall } from './identity.js';
import {
  checkStock,
  findContact,
  findItems,
  listWatches,
  type ToolAnswer,
  type ToolDeps,
} from './tools.js';

export const TOOL_NAMES = ['check_stock', 'find_items', 'find_contact', 'list_watches'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** Text as the commands take it: control and invisible characters out, one line, capped. */
const text = (max: number) =>
  z
    .string()
    .max(max * 4)
    .transform((value) => sanitizeInput(value, max).text.replace(/\s+/g, ' ').trim());

/** A quantity past this is a typo, and would be promised by nobody (as for the step). */
const MAX_QUANTITY = 1_000_000_000;

const CheckStockInput = {
  code: text(MAX_WORD_LENGTH)
    .pipe(z.string().min(1))
    .describe('The item code, e.g. WIDGET-9 (any case).'),
  quantity: z
    .number()
    .min(0)
    .max(MAX_QUANTITY)
    .optional()
    .describe('How many are wanted; leave out to ask whether any are free.'),
  branch: text(100)
    .optional()
    .describe('The branch asked about, e.g. perth; leave out for the whole company.'),
};

const FindItemsInput = {
  words: text(200)
    .pipe(z.string().min(1))
    .describe('Words of the item description or code, e.g. "blue widget".'),
  category: text(100).optional().describe('A category name or id, to narrow the search.'),
  supplier: text(100).optional().describe('A supplier name or id, to narrow the search.'),
};

const FindContactInput = {
  account: text(200)
    .pipe(z.string().min(1))
    .describe('The account code (e.g. ACME01) or words of the company name.'),
  role: text(100)
    .optional()
    .describe('Words of a role, department or name, e.g. "accounts" or "purchasing".'),
};

/** Every tool only reads: Slackbot may call it without asking the person first. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;
const BLOCK_KIT = { slack: { supportsBlockKit: true } };

function result(answer: ToolAnswer): CallToolResult {
  return {
    content: [{ type: 'text', text: answer.text }],
    ...(answer.blocks && answer.blocks.length > 0
      ? { _meta: { slack: { blocks: answer.blocks } } }
      : {}),
    ...(answer.isError ? { isError: true } : {}),
  };
}

export interface ToolServerDeps {
  tools: ToolDeps;
  /** The Web API client users.info goes through (who is a member, a guest, an external). */
  client: () => SlackUsersApi;
}

/**
 * Runs a tool for the person the call's `_meta.slack` names; a call naming none is refused
 * with an error result, never answered for a person given as an argument.
 */
async function forPerson(
  deps: ToolServerDeps,
  tool: ToolName,
  meta: unknown,
  run: (actor: Actor, client: SlackUsersApi) => Promise<ToolAnswer>,
): Promise<CallToolResult> {
  const actor = actorOfCall(meta);
  const { logger } = deps.tools;
  if (actor === undefined) {
    logger.info({ event: 'mcp_tool_refused', tool }, 'a tool call named no Slack user');
    return result({ text: noSlackUserToolText(), isError: true });
  }
  logger.info({ event: 'mcp_tool_call', tool, user: actor.userId }, 'tool call');
  return result(await run(actor, deps.client()));
}

export function toolServer(deps: ToolServerDeps): McpServer {
  const server = new McpServer(
    { name: 'erp-lookups', title: 'ERP lookups', version: '0.1.0' },
    {
      instructions:
        'Stock, items and customer contacts from the ERP, answered for the Slack user who asks. Read-only. Phone numbers, e-mail addresses, costs and account terms are never given.',
    },
  );
  server.registerTool(
    'check_stock',
    {
      title: 'Check stock',
      description:
        'Can we supply a quantity of an item, at a branch or company-wide? Answers Yes or No with what is free, and the branches that could cover it.',
      inputSchema: CheckStockInput,
      annotations: { title: 'Check stock', ...READ_ONLY },
      _meta: BLOCK_KIT,
    },
    (args, extra) =>
      forPerson(deps, 'check_stock', extra._meta, (actor, client) =>
        checkStock(deps.tools, args, actor, client),
      ),
  );
  server.registerTool(
    'find_items',
    {
      title: 'Find items',
      description:
        'Search items by words, optionally in a category or from a supplier: up to ten codes with their description and how many are available.',
      inputSchema: FindItemsInput,
      annotations: { title: 'Find items', ...READ_ONLY },
      _meta: BLOCK_KIT,
    },
    (args, extra) =>
      forPerson(deps, 'find_items', extra._meta, (actor) => findItems(deps.tools, args, actor)),
  );
  server.registerTool(
    'find_contact',
    {
      title: 'Find a contact',
      description:
        'A customer or supplier account by code or name: its company, type, status, salesperson, and the names and roles of its people (optionally only those matching a role).',
      inputSchema: FindContactInput,
      annotations: { title: 'Find a contact', ...READ_ONLY },
      _meta: BLOCK_KIT,
    },
    (args, extra) =>
      forPerson(deps, 'find_contact', extra._meta, (actor, client) =>
        findContact(deps.tools, args, actor, client),
      ),
  );
  server.registerTool(
    'list_watches',
    {
      title: 'List my stock watches',
      description: 'The stock watches the asking person has set, and where each stands.',
      annotations: { title: 'List my stock watches', ...READ_ONLY },
      _meta: BLOCK_KIT,
    },
    (extra) =>
      forPerson(deps, 'list_watches', extra._meta, (actor) => listWatches(deps.tools, actor)),
  );
  return server;
}
