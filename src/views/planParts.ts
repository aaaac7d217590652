/**
 * The plan after a "No" in words (src/rules/plan.ts works it out): at most three one-line
 * options under the verdict, each with a button that answers it as a verdict card of its own,
 * and that card's first lines. Made for a phone: an option is one line of about 40 characters.
 */
import type { Button, KnownBlock } from '@slack/types';
import type { PlanOption, SplitPart } from '../rules/plan.js';
import type { StockVerdict } from '../rules/stock.js';
import {
  ACTION,
  actionId,
  branchNameWords,
  type CardQuestion,
  type ItemStateExtra,
  itemState,
  type PlanChoice,
} from './actions.js';
import { context, plain, section, stateButton, truncatePlain } from './blocks.js';
import { escapeMrkdwn, formatQty } from './format.js';
import { verdictBlocks, verdictSentence } from './itemParts.js';
import { SET_WATCH_ACTION, WatchProposalState } from './words.js';

/** A branch name inside an option line: three of them and their figures fit one phone line. */
const short = (name: string, max = 12): string =>
  truncatePlain(name.replace(/\s+/g, ' ').trim(), max) || 'a branch';

const splitText = (parts: readonly SplitPart[]): string =>
  parts.map((p) => `${formatQty(p.take)} ${short(p.branch.name)}`).join(' + ');

/** One option as one plain line: "Sydney has all 40: 170 free", "Split: 37 Sydney + 3 Brisbane". */
export function planOptionLine(option: PlanOption): string {
  switch (option.kind) {
    case 'whole':
      return `${short(option.branch.name, 16)} has all ${formatQty(option.quantity)}: ${formatQty(option.branch.available)} free`;
    case 'split':
      return `Split: ${splitText(option.parts)}`;
    case 'later':
      return `${formatQty(option.now)} now; ${formatQty(option.onOrder)} on order, no date`;
  }
}

/** The plan as one plain sentence for a `text` fallback: "Options: …; …." Empty without one. */
export function planSentence(plan: readonly PlanOption[]): string {
  return plan.length === 0 ? '' : `Options: ${plan.map(planOptionLine).join('; ')}.`;
}

/** The question a plan option's button asks: the branch's own verdict, or the option itself. */
function optionQuestion(option: PlanOption, asked: CardQuestion): CardQuestion | undefined {
  if (option.kind === 'whole') {
    const words = branchNameWords(option.branch.name);
    return words === undefined ? undefined : { quantity: option.quantity, branchWords: words };
  }
  const choice: PlanChoice = option.kind;
  return {
    quantity: option.quantity,
    ...(asked.branchWords === undefined ? {} : { branchWords: asked.branchWords }),
    option: choice,
  };
}

/** Which option number a View button is, so that three in one message stay unique. */
const OPTION_BUTTON = 80;

function optionButton(
  item: { code: string; id: number },
  option: PlanOption,
  index: number,
  here: ItemStateExtra,
): Button | undefined {
  const asked = here.question ?? {};
  const question = optionQuestion(option, asked);
  if (question === undefined) return undefined;
  const state = itemState(item, {
    ...(here.threadTs === undefined ? {} : { threadTs: here.threadTs }),
    question,
  });
  return stateButton('View', actionId(ACTION.itemView, OPTION_BUTTON + index), state, {
    accessibilityLabel: `View: ${planOptionLine(option)}`,
  });
}

/**
 * The plan's options under the verdict, one section each with its View button beside it; none
 * on a shared message (its buttons are the viewer's own card, one View away).
 */
export function planBlocks(
  item: { code: string; id: number },
  verdict: StockVerdict,
  here: ItemStateExtra,
  interactive: boolean,
): KnownBlock[] {
  return verdict.plan.slice(0, 3).map((option, index) => {
    const text = `• ${escapeMrkdwn(planOptionLine(option))}`;
    const button = interactive ? optionButton(item, option, index, here) : undefined;
    return button === undefined ? section(text) : { ...section(text), accessory: button };
  });
}

/** Whether the plan says who could fill it, so the "could cover it" line would repeat it. */
export const planNamesBranches = (verdict: StockVerdict): boolean =>
  verdict.plan.some((option) => option.kind !== 'later');

/** The option a card was asked to answer, when the fresh figures still offer it. */
export function chosenOption(
  verdict: StockVerdict | undefined,
  choice: PlanChoice | undefined,
): Extract<PlanOption, { kind: PlanChoice }> | undefined {
  if (verdict === undefined || choice === undefined) return undefined;
  return verdict.plan.find(
    (option): option is Extract<PlanOption, { kind: PlanChoice }> => option.kind === choice,
  );
}

/** A chosen option's answer in one line: "Yes, as a split: 37 Sydney + 3 Brisbane". */
export function chosenLine(option: Extract<PlanOption, { kind: PlanChoice }>): string {
  if (option.kind === 'split') return `Yes, as a split: ${splitText(option.parts)}`;
  const rest = option.quantity - option.now;
  return `Part now: ${formatQty(option.now)} of ${formatQty(option.quantity)}; ${formatQty(rest)} more when stock on order arrives`;
}

/** The line under it: each branch's free stock, or what is on order (never counted). */
function chosenDetail(option: Extract<PlanOption, { kind: PlanChoice }>): string {
  if (option.kind === 'split') {
    return option.parts
      .map((p) => `${short(p.branch.name, 20)} has ${formatQty(p.branch.available)} free`)
      .join(' · ');
  }
  return `${formatQty(option.onOrder)} on order with no date: not counted as available.`;
}

/** The chosen option as the card's first lines, in place of the plain verdict. */
export function chosenBlocks(option: Extract<PlanOption, { kind: PlanChoice }>): KnownBlock[] {
  const icon = option.kind === 'split' ? ':white_check_mark:' : ':hourglass_flowing_sand:';
  const line = escapeMrkdwn(chosenLine(option)).replace(/^([^:]+):/, '*$1:*');
  return [section(`${icon} ${line}`), context(escapeMrkdwn(chosenDetail(option)))];
}

/** The chosen option as a plain sentence, for the `text` fallback. */
export function chosenSentence(
  option: Extract<PlanOption, { kind: PlanChoice }>,
  verdict: StockVerdict,
): string {
  return `${chosenLine(option)} (${formatQty(option.quantity)} of ${verdict.code}). ${chosenDetail(option)}`;
}

/**
 * "Tell me when it's Yes" beside a No: a one-shot watch for that quantity there (available
 * rising to it), made by the press in this conversation, removed after its one alert.
 */
function tellMeButton(verdict: StockVerdict, asked: CardQuestion): Button | undefined {
  if (verdict.canSupply || verdict.quantity === undefined) return undefined;
  const words =
    verdict.branch === undefined ? [] : (branchNameWords(verdict.branch.name) ?? asked.branchWords);
  if (words === undefined || verdict.code.length > 100 || verdict.quantity > 1_000_000_000) {
    return undefined;
  }
  const state: WatchProposalState = {
    v: 1,
    c: verdict.code,
    d: 'above',
    n: verdict.quantity,
    ...(words.length > 0 ? { b: [...words] } : {}),
    o: 1,
  };
  if (!WatchProposalState.safeParse(state).success) return undefined;
  return {
    type: 'button',
    action_id: SET_WATCH_ACTION,
    text: plain("Tell me when it's Yes"),
    value: JSON.stringify(state),
    accessibility_label:
      `Tell me when ${formatQty(verdict.quantity)} of ${verdict.code} can be promised`.slice(0, 75),
  };
}

/**
 * The verdict's lines with the plan under it, or the chosen option's lines in its place. The
 * "could cover it" line gives way to options that name the branches.
 */
export function verdictWithPlan(
  item: { code: string; id: number },
  verdict: StockVerdict,
  here: ItemStateExtra,
  interactive: boolean,
): KnownBlock[] {
  const chosen = chosenOption(verdict, here.question?.option);
  if (chosen !== undefined) return chosenBlocks(chosen);
  const [first, ...rest] = verdictBlocks(verdict);
  const tellMe = interactive ? tellMeButton(verdict, here.question ?? {}) : undefined;
  const head = first?.type === 'section' && tellMe ? { ...first, accessory: tellMe } : first;
  const lines = head === undefined ? rest : [head, ...rest];
  return [
    ...(planNamesBranches(verdict) ? lines.slice(0, 1) : lines),
    ...planBlocks(item, verdict, here, interactive),
  ];
}

/** The verdict (or the chosen option) as the `text` fallback's sentence, with the plan. */
export function verdictWithPlanSentence(verdict: StockVerdict, choice?: PlanChoice): string {
  const chosen = chosenOption(verdict, choice);
  if (chosen !== undefined) return chosenSentence(chosen, verdict);
  const plan = planSentence(verdict.plan);
  return plan ? `${verdictSentence(verdict)} ${plan}` : verdictSentence(verdict);
}
