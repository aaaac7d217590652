/**
 * The Workflow Builder step "Look up stock" (`function_executed` for `lookup_stock`): the same
 * getItem, budget, cache and verdict as `/stock CODE N branch`, completed with outputs a
 * workflow can branch on, or failed with one plain sentence (views/workflowStep.ts).
 *
 * A run's event carries no person, no channel and no workflow id. Every run of the step draws
 * budget as ONE requester, `workflow:<step>`, whatever it names: all runs together hold at most
 * one requester's share, so automations cannot crowd people out. Within that share, runs are
 * ordered per person by the optional `requested_by` input (Workflow Builder maps "Person who
 * used this workflow"; lookup/fairQueue.ts): one person's burst of runs leaves room for the
 * next person's run within the step's share. The input is the workflow's word, not Slack's
 * proof of a person: it only orders the step's own runs (naming many people gets no more than
 * the step's share), it is apart from that person's own commands, and it never passes an access
 * list: the stock access lists, which name people and channels, refuse every run whenever
 * either is set.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { z } from 'zod';
import { NotFoundError } from '../../../erp/errors.js';
import { errorFields } from '../../../log/logger.js';
import { groupMember } from '../../../lookup/fairQueue.js';
import { checkAccess } from '../../../privacy/access.js';
import { splitPossible } from '../../../rules/plan.js';
import { stockVerdict } from '../../../rules/stock.js';
import {
  type LookupStockOutputs,
  type StepInputProblem,
  stepErrorText,
  stepInputProblemText,
  stepOutputs,
  stepRefusedText,
  stepUnknownBranchText,
  stepUnknownItemText,
} from '../../../views/workflowStep.js';
import { codeBySearch, knownItemCode, logFailure } from '../../answers.js';
import type { DeliveryDeps, ItemDeps } from '../../deps.js';
import { UserId } from '../../ids.js';
import { MAX_WORD_LENGTH, sanitizeInput } from '../../input.js';

export const LOOKUP_STOCK_FUNCTION = 'lookup_stock';

/** A quantity past this is a typo, and would be promised by nobody. */
const MAX_QUANTITY = 1_000_000_000;
/** Branch names are short; a longer input is a mapping mistake in the workflow. */
const MAX_BRANCH_LENGTH = 100;

/** Workflow Builder sends an unset optional input as absent, null or an empty string. */
const unset = (value: unknown) => (value === null || value === '' ? undefined : value);

const cleaned = (value: unknown) =>
  typeof value === 'string' ? sanitizeInput(value, 10_000).text : value;

/** The inputs as the manifest declares them; each issue is keyed by the input's name. */
const StepInputs = z.object({
  // A code of digits only may be mapped from a number field.
  item_code: z.preprocess(
    (value) => cleaned(typeof value === 'number' ? String(value) : value),
    z
      .string({ error: 'item_code_missing' })
      .min(1, { error: 'item_code_missing' })
      .max(MAX_WORD_LENGTH, { error: 'item_code_invalid' })
      .regex(/^\S+$/, { error: 'item_code_invalid' }),
  ),
  // Integer inputs arrive as numbers; a form field mapped into one may arrive as its text.
  quantity: z.preprocess((value) => {
    const v = unset(typeof value === 'string' ? value.trim() : value);
    return typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  }, z
    .number({ error: 'quantity_invalid' })
    .int({ error: 'quantity_invalid' })
    .min(0, { error: 'quantity_invalid' })
    .max(MAX_QUANTITY, { error: 'quantity_invalid' })
    .optional()),
  branch: z.preprocess(
    (value) => unset(cleaned(value)),
    z
      .string({ error: 'branch_invalid' })
      .max(MAX_BRANCH_LENGTH, { error: 'branch_invalid' })
      .optional(),
  ),
});
type StepInputs = z.infer<typeof StepInputs>;

/** What the listener reads of the event beyond its inputs: which step this is. */
const StepEvent = z.object({
  function: z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/) }).optional(),
});

/** What Bolt put in the context from the run's event: its id, and its workflow token. */
const RunContext = z.object({
  functionExecutionId: z.string().regex(/^Fx[A-Z0-9]{1,40}$/),
  functionBotAccessToken: z.string().startsWith('xwfp-').max(500).optional(),
});

type StepOutcome = { ok: true; outputs: LookupStockOutputs } | { ok: false; error: string };

/** The first problem zod found, as the views name it; anything else is a bad code. */
function inputProblem(error: z.ZodError): StepInputProblem {
  const known: readonly string[] = [
    'item_code_missing',
    'item_code_invalid',
    'quantity_invalid',
    'branch_invalid',
  ] satisfies StepInputProblem[];
  const message = error.issues[0]?.message ?? '';
  return (known.includes(message) ? message : 'item_code_invalid') as StepInputProblem;
}

export function parseStepInputs(
  inputs: unknown,
): { ok: true; inputs: StepInputs } | { ok: false; problem: StepInputProblem } {
  // Inputs that are not an object carry no item code.
  const object = typeof inputs === 'object' && inputs !== null && !Array.isArray(inputs);
  const parsed = StepInputs.safeParse(object ? inputs : {});
  return parsed.success
    ? { ok: true, inputs: parsed.data }
    : { ok: false, problem: inputProblem(parsed.error) };
}

/** The person a run is for, when the workflow maps one; anything not shaped like one is none. */
const RequestedBy = z.object({ requested_by: UserId });

/**
 * The requester a run draws budget as: the step's, `workflow:<step>`, and within it the person
 * `requested_by` names, when it names one (groupMember: the step's share, that person's turn).
 */
export function stepRequester(event: unknown, inputs?: unknown): string {
  const parsed = StepEvent.safeParse(event);
  const step = `workflow:${(parsed.success && parsed.data.function?.id) || LOOKUP_STOCK_FUNCTION}`;
  const person = RequestedBy.safeParse(inputs);
  return person.success ? groupMember(step, person.data.requested_by) : step;
}

/**
 * One run of the step, from raw inputs to the outputs or the sentence to fail with. Never
 * throws: every failure is a sentence.
 */
export async function runLookupStock(
  deps: Pick<ItemDeps, 'lookup' | 'catalogue' | 'demand'> & Pick<DeliveryDeps, 'logger' | 'access'>,
  rawInputs: unknown,
  requester: string,
): Promise<StepOutcome> {
  // The lists name people and channels; a run has neither, so any list refuses it.
  const access = checkAccess(
    deps.access.stock,
    { userId: requester, channelId: undefined },
    '/stock',
  );
  if (!access.allowed) {
    deps.logger.info({ requester, reason: access.reason }, 'workflow step refused by access rules');
    return { ok: false, error: stepRefusedText() };
  }
  const parsed = parseStepInputs(rawInputs);
  if (!parsed.ok) {
    deps.logger.info({ requester, problem: parsed.problem }, 'workflow step: bad inputs');
    return { ok: false, error: stepInputProblemText(parsed.problem) };
  }
  const { item_code: code, quantity, branch } = parsed.inputs;
  try {
    // Codes in any case: the index knows how the ERP spells them (`widget-9` is WIDGET-9); when
    // it does not yet, one search finds the spelling.
    const fetched = await deps.lookup
      .getItem({ code: knownItemCode(deps, code) }, { requester })
      .catch(async (error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
        const spelled = await codeBySearch(deps, code, { userId: requester });
        if (spelled === undefined) throw error;
        return deps.lookup.getItem({ code: spelled }, { requester });
      });
    const item = fetched.data;
    const branchWords = branch === undefined ? [] : branch.split(' ');
    const verdict = stockVerdict(item, {
      ...(quantity === undefined ? {} : { quantity }),
      branchWords,
    });
    // A branch the item does not have must not pass as a company-wide answer.
    if (branch !== undefined && (verdict.branch === undefined || verdict.unknownWords.length > 0)) {
      return {
        ok: false,
        error: stepUnknownBranchText(
          item.code,
          branch,
          item.branches.map((b) => b.name),
        ),
      };
    }
    // A No the step gave is unmet demand as a command's is (counts only: a run has no person).
    if (quantity !== undefined && !verdict.canSupply) {
      deps.demand?.noAnswered(item.code, verdict.branch);
    }
    return { ok: true, outputs: stepOutputs(verdict, splitPossible(verdict.plan)) };
  } catch (error) {
    if (error instanceof NotFoundError) return { ok: false, error: stepUnknownItemText(code) };
    logFailure(deps.logger, 'workflow step lookup_stock', error);
    return { ok: false, error: stepErrorText(error) };
  }
}

/**
 * `app.function('lookup_stock', …)`: Bolt acknowledges the event before this runs. The app
 * runs with `attachFunctionToken: false` (app.ts), so no payload's token ever becomes a
 * listener's client; the run is completed with its own workflow token, named here.
 */
export function lookupStockStep(deps: DeliveryDeps & ItemDeps) {
  return async ({
    event,
    inputs,
    client,
    context,
  }: SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs): Promise<void> => {
    const outcome = await runLookupStock(deps, inputs, stepRequester(event, inputs));
    const run = RunContext.safeParse(context);
    if (!run.success) {
      deps.logger.warn({}, 'workflow step: the run has no execution id to complete');
      return;
    }
    const { functionExecutionId: function_execution_id, functionBotAccessToken: token } = run.data;
    const as = token === undefined ? {} : { token };
    try {
      if (outcome.ok) {
        await client.functions.completeSuccess({
          ...as,
          function_execution_id,
          outputs: { ...outcome.outputs },
        });
      } else {
        await client.functions.completeError({
          ...as,
          function_execution_id,
          error: outcome.error,
        });
      }
    } catch (error) {
      // Slack refused the completion (the run was cancelled, or already finished): nothing
      // more to tell anyone but the log.
      deps.logger.warn({ err: errorFields(error) }, 'workflow step: could not complete the run');
    }
  };
}
