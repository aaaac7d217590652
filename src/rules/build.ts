/**
 * The build check: can N of an item be built from the first level of its bill of materials?
 * Each component's quantity × N against what it has free (SOH minus allocated, negative counts
 * as 0; on order never counts), company-wide or at the named branch. Pure: the answer
 * (src/slack/buildAnswer.ts) fetches the components and src/views/buildCheck.ts words it.
 */
import type { Item } from '../erp/schemas.js';
import { availableOf, matchBranch } from './stock.js';

export interface BuildQuestion {
  quantity: number;
  /** The branch asked about, by name (matched on each component's own branches). */
  branchName?: string;
}

/** Where a short component is held: its branches with stock free, most first. */
export interface HeldAt {
  name: string;
  free: number;
}

export interface ShortComponent {
  code: string;
  need: number;
  /** Free at the asked branch, or company-wide. */
  free: number;
  /** Other branches (or every branch, company-wide) holding it, most first, at most 3. */
  heldAt: HeldAt[];
}

export interface BuildCheck {
  code: string;
  quantity: number;
  branchName: string | undefined;
  /** Components on the first level of the bill of materials. */
  total: number;
  /** Components whose figures are known (the rest are still being fetched). */
  checked: number;
  /** Known components that cannot cover their part, in BOM order. */
  short: ShortComponent[];
  /** Components the ERP no longer has, by code. */
  missing: string[];
  /** How many could be built from the components checked so far (undefined: none checked). */
  enoughFor: number | undefined;
  /** True when there is a bill of materials, every component is checked and none is short or missing. */
  canBuild: boolean;
  /** True when every component has been checked. */
  complete: boolean;
}

/** What is known of one component: its record, or that the ERP has no such item. */
export type ComponentFigures = Item | 'missing';

/** A fractional BOM quantity times N, rounded up: half a seal is still a seal to find. */
export const needed = (qty: number, quantity: number): number => Math.ceil(qty * quantity - 1e-9);

function freeAt(component: Item, branchName: string | undefined): number {
  if (branchName === undefined) return Math.max(availableOf(component), 0);
  const { branch } = matchBranch(component.branches, [branchName]);
  // A branch the component does not list holds none of it.
  return branch === undefined ? 0 : Math.max(availableOf(branch), 0);
}

function heldAt(component: Item, branchName: string | undefined): HeldAt[] {
  return component.branches
    .filter((b) => availableOf(b) > 0 && b.name !== branchName)
    .sort((a, b) => availableOf(b) - availableOf(a) || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((b) => ({ name: b.name, free: availableOf(b) }));
}

/**
 * The check from what is known: `figures` maps a component code to its record (or `missing`);
 * components not in it are not checked yet.
 */
export function buildCheck(
  item: Pick<Item, 'code' | 'bom'>,
  question: BuildQuestion,
  figures: ReadonlyMap<string, ComponentFigures>,
): BuildCheck {
  const { quantity, branchName } = question;
  const short: ShortComponent[] = [];
  const missing: string[] = [];
  let checked = 0;
  let enoughFor: number | undefined;
  for (const line of item.bom) {
    const known = figures.get(line.code);
    if (known === undefined) continue;
    checked += 1;
    if (known === 'missing') {
      missing.push(line.code);
      enoughFor = 0;
      continue;
    }
    const free = freeAt(known, branchName);
    // A component used 0 times limits nothing.
    if (line.qty <= 0) continue;
    const builds = Math.floor(free / line.qty + 1e-9);
    enoughFor = enoughFor === undefined ? builds : Math.min(enoughFor, builds);
    const need = needed(line.qty, quantity);
    if (free < need) short.push({ code: line.code, need, free, heldAt: heldAt(known, branchName) });
  }
  const complete = checked === item.bom.length;
  return {
    code: item.code,
    quantity,
    branchName,
    total: item.bom.length,
    checked,
    short,
    missing,
    enoughFor,
    canBuild: item.bom.length > 0 && complete && short.length === 0 && missing.length === 0,
    complete,
  };
}
