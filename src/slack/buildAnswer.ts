/**
 * `/stock CODE build N [at BRANCH]`: the item, then each component of its bill of materials'
 * first level, one getItem each unless the cache holds it, through the same lookup service as
 * every card (the budget, the fair queue, the cache). Components are fetched one at a time,
 * so a long bill of materials never takes more than one place in the fair queue and other
 * people's lookups go between (PLANT-88 has 86 components; the ERP allows 60 getItem a
 * minute). What is known answers at once; `later` then updates that message as the rest
 * arrive ("checked 40 of 86"), a few times at most (a response_url takes five uses).
 */
import { NotFoundError } from '../erp/errors.js';
import type { AppLogger } from '../log/logger.js';
import { groupMember } from '../lookup/fairQueue.js';
import { BusyError } from '../lookup/types.js';
import { type BuildCheck, buildCheck, type ComponentFigures } from '../rules/build.js';
import { matchBranch } from '../rules/stock.js';
import { buildCheckMessage } from '../views/buildCheck.js';
import { noticeMessage } from '../views/feedback.js';
import { unknownBranchNote } from '../views/itemParts.js';
import type { SlackMessage } from '../views/message.js';
import { knownItemCode, lookupOptions } from './answers.js';
import { within } from './delivery.js';
import type { ItemDeps } from './deps.js';
import type { Actor } from './payloads.js';

export interface BuildRequest {
  code: string;
  quantity: number;
  branchWords: readonly string[];
}

/** Sends a newer version of the answer in place of the one delivered. */
export type Later = (message: SlackMessage) => Promise<void>;

/** How long the first answer waits for components before it says what is known. */
const FIRST_ANSWER_MS = 700;
/** Progress updates before the final one: with the final, within a response_url's five uses. */
const PROGRESS_UPDATES = 2;
/** A busy budget is waited out this many times per component before the check stops. */
const BUSY_RETRIES = 5;
/** The longest single wait for a busy budget (the fair queue says how long it expects). */
const MAX_BUSY_WAIT_MS = 60_000;

type BuildDeps = Pick<ItemDeps, 'lookup' | 'catalogue'> & { logger: AppLogger };

/**
 * Components are fetched as a member of the person's own requester group: the budget counts
 * them in the person's fair share, and within it the check may hold only the share less a
 * reserve, so the person's next card still goes out within the window (fairQueue.ts).
 */
const componentOptions = (actor: Actor) => ({
  requester: groupMember(actor.userId, 'build'),
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One component's figures: the record, `missing` on a 404, undefined when it could not be had. */
async function componentFigures(
  deps: BuildDeps,
  code: string,
  actor: Actor,
): Promise<ComponentFigures | undefined> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return (await deps.lookup.getItem({ code }, componentOptions(actor))).data;
    } catch (error) {
      if (error instanceof NotFoundError) return 'missing';
      if (!(error instanceof BusyError) || attempt >= BUSY_RETRIES) {
        deps.logger.info({ code, reason: (error as Error).name }, 'build check: component not had');
        return undefined;
      }
      await sleep(Math.min(Math.max(error.expectedWaitMs, 1000), MAX_BUSY_WAIT_MS));
    }
  }
}

/** The components not in the cache, fetched in turn; `onChecked` after each. */
async function fetchRest(
  deps: BuildDeps,
  codes: readonly string[],
  figures: Map<string, ComponentFigures>,
  actor: Actor,
  onChecked: () => Promise<void>,
): Promise<void> {
  for (const code of codes) {
    const known = await componentFigures(deps, code, actor);
    // The ERP is down or the budget stayed busy: the check says how far it came.
    if (known === undefined) return;
    figures.set(code, known);
    await onChecked();
  }
}

export async function buildAnswer(
  deps: BuildDeps,
  request: BuildRequest,
  actor: Actor,
  later?: Later,
): Promise<SlackMessage> {
  const fetched = await deps.lookup.getItem(
    { code: knownItemCode(deps, request.code) },
    lookupOptions(actor),
  );
  const item = fetched.data;
  const { branch, unknownWords } = matchBranch(item.branches, request.branchWords);
  if (request.branchWords.length > 0 && (branch === undefined || unknownWords.length > 0)) {
    const names = item.branches.map((b) => b.name);
    return noticeMessage(unknownBranchNote(unknownWords, names));
  }
  const question = {
    quantity: request.quantity,
    ...(branch === undefined ? {} : { branchName: branch.name }),
  };
  const figures = new Map<string, ComponentFigures>();
  const codes = [...new Set(item.bom.map((line) => line.code))];
  for (const code of codes) {
    const cached = deps.lookup.peekItem?.({ code })?.data;
    if (cached !== undefined) figures.set(code, cached);
  }
  const check = (): BuildCheck => buildCheck(item, question, figures);
  const rest = codes.filter((code) => !figures.has(code));
  if (rest.length === 0) return buildCheckMessage(check());

  let first: BuildCheck | undefined;
  let updates = 0;
  // Set with the first answer: the components left then, in PROGRESS_UPDATES + 1 parts.
  let step = Number.POSITIVE_INFINITY;
  let sinceUpdate = 0;
  const done = fetchRest(deps, rest, figures, actor, async () => {
    sinceUpdate += 1;
    // Progress only after the first answer went out, and only a few times.
    if (first === undefined || later === undefined) return;
    if (sinceUpdate < step || updates >= PROGRESS_UPDATES) return;
    if (figures.size === codes.length) return;
    sinceUpdate = 0;
    updates += 1;
    await later(buildCheckMessage(check()));
  });
  // Without a way to update the message, the answer is the whole check, however long.
  if (later === undefined || (await within(done, FIRST_ANSWER_MS)).done) {
    await done;
    return buildCheckMessage(check());
  }
  first = check();
  step = Math.max(Math.ceil((codes.length - figures.size) / (PROGRESS_UPDATES + 1)), 1);
  sinceUpdate = 0;
  done
    .then(() => later(buildCheckMessage(check())))
    .catch((error: unknown) => deps.logger.warn({ err: error }, 'build check: could not finish'));
  return buildCheckMessage(first);
}
