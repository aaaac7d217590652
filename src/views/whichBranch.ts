/**
 * "Which branch?": a quantity asked about a place the item has no branch for (`/stock WIDGET-9
 * 5 narnia`). No verdict at all, never a company-wide yes or no for a question about a place:
 * a button per branch that holds stock (best first, at most five) and "Company-wide", each
 * answering the verdict in place.
 */
import type { Button } from '@slack/types';
import type { Freshness } from '../lookup/types.js';
import { ACTION, actionId, itemState } from './actions.js';
import { actions, context, LIMITS, markedAs, section, stateButton } from './blocks.js';
import {
  codeSpan,
  type DisplayOptions,
  escapeTruncated,
  formatQty,
  oneLine,
  shortFooter,
} from './format.js';
import type { SlackMessage } from './message.js';

interface WhichBranchModel extends DisplayOptions {
  item: { code: string; id: number; description: string };
  quantity: number;
  /** The words that named no branch, as typed. */
  unknownWords: readonly string[];
  /** Branches that could be meant, best first (the answer layer picks and orders them). */
  candidates: ReadonlyArray<{ name: string; available: number }>;
  freshness: Freshness;
  threadTs?: string;
}

export function whichBranch(model: WhichBranchModel): SlackMessage {
  const { item, quantity } = model;
  const words = model.unknownWords.map((w) => `“${oneLine(w, 30)}”`).join(' ');
  const question = (branchWords?: string[]) =>
    itemState(item, {
      question: { quantity, ...(branchWords ? { branchWords } : {}) },
      ...(model.threadTs === undefined ? {} : { threadTs: model.threadTs }),
    });
  const buttons: Array<Button | undefined> = [
    ...model.candidates.map((branch, i) =>
      stateButton(
        `${branch.name} (${formatQty(Math.max(0, branch.available))})`,
        actionId(ACTION.itemPart, 10 + i),
        question(branch.name.split(/\s+/).filter(Boolean)),
        {
          accessibilityLabel: `Can ${formatQty(quantity)} of ${item.code} come from ${branch.name}?`,
        },
      ),
    ),
    stateButton('Company-wide', actionId(ACTION.itemPart, 9), question(), {
      accessibilityLabel: `Can ${formatQty(quantity)} of ${item.code} be supplied company-wide?`,
    }),
  ];
  const none = model.candidates.length === 0 ? ' No branch holds stock of it.' : '';
  const blocks = [
    section(
      `:question: *Which branch?* ${words} is not a branch of ${codeSpan(item.code, 30)}.${none}`,
    ),
    context(
      `${codeSpan(item.code, 30)} ${oneLine(item.description, 60)} · ${formatQty(quantity)} asked`,
    ),
    actions(buttons),
    shortFooter(model.freshness, model, false),
  ].filter((b) => b !== undefined);
  const plainWords = model.unknownWords.map((w) => `“${w}”`).join(' ');
  const text = `Which branch? ${plainWords} is not a branch of ${item.code}: choose one for ${formatQty(quantity)}.`;
  // An answer all the same (a choice to make), whatever else its buttons are.
  return markedAs({ text: escapeTruncated(text, LIMITS.fallbackText / 4), blocks }, 'done');
}
