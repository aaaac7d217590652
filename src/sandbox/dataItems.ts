/**
 * Random catalogue items: the factory that gives every item an id, a unique code and branch
 * stock, then multi-level BOMs in tiers (a tier-k assembly always uses a tier k-1 one, never a
 * higher one, so there are no cycles and a BOM is at most four levels deep) and kits.
 */
import {
  CATEGORY_DEFS,
  type CategoryDef,
  randomCode,
  randomCost,
  randomDescription,
  randomStock,
  round,
  type StockProfile,
} from './dataCatalogue.js';
import type { ItemDraft, KitDraft } from './dataDraft.js';
import type { Random } from './prng.js';
import type { BranchStockRecord, NamedId } from './types.js';

interface DraftSpec {
  /** A fixed id, below the generated ones (which start above 1000), for examples like `id:123`. */
  id?: number;
  category: string;
  code?: string;
  description?: string;
  profile?: StockProfile;
  stock?: BranchStockRecord[];
  disabled?: boolean;
  cost?: number;
}

export const TIER_SIZES = [70, 40, 20, 8] as const;
const BOM_QUANTITIES = [1, 1, 1, 2, 2, 3, 4, 6, 12, 0.5, 0.25, 1.5, 2.5, 0.125];
const KIT_GROUPS = ['Accessories', 'Spares', 'Consumables', 'Safety', 'Optional extras'];

export class ItemFactory {
  readonly drafts: ItemDraft[] = [];
  private readonly usedCodes = new Set<string>();
  private nextId = 1000;

  constructor(
    private readonly random: Random,
    readonly branches: readonly NamedId[],
    private readonly suppliers: readonly NamedId[],
  ) {}

  create(spec: DraftSpec): ItemDraft {
    const categoryIndex = CATEGORY_DEFS.findIndex((def) => def.name === spec.category);
    const def = CATEGORY_DEFS[categoryIndex] as CategoryDef;
    const code = spec.code ?? randomCode(this.random, def, this.usedCodes);
    if (spec.code !== undefined) {
      if (this.usedCodes.has(code)) throw new Error(`duplicate sandbox item code ${code}`);
      this.usedCodes.add(code);
    }
    // Real ERP ids have gaps (deleted items); so do ours. Drawn even for a fixed id, so the
    // rest of the data set is the same with or without it.
    this.nextId += this.random.int(1, 3);
    const cost = spec.cost ?? randomCost(this.random, def);
    const draft: ItemDraft = {
      id: spec.id ?? this.nextId,
      code,
      description: spec.description ?? randomDescription(this.random, def),
      categoryId: categoryIndex + 1,
      supplierId: this.random.pick(this.suppliers).id,
      cost,
      price: round(cost * (1.25 + this.random.next())),
      disabled: spec.disabled ?? this.random.chance(0.04),
      stock:
        spec.stock ??
        randomStock(
          this.random,
          this.branches,
          spec.profile ?? this.randomProfile(),
          !!def.fractional,
        ),
      bom: [],
      kits: [],
    };
    if (this.random.chance(0.3)) draft.supplierCode = `S${this.random.int(10_000, 99_999)}`;
    this.drafts.push(draft);
    return draft;
  }

  /** Explicit branch stock for fixed records: `[branchIndex, soh, allocated, onorder]`. */
  stock(rows: ReadonlyArray<readonly [number, number, number, number]>): BranchStockRecord[] {
    return this.branches.map(({ id, name }, index) => {
      const row = rows.find(([branchIndex]) => branchIndex === index);
      const [, soh, allocated, onorder] = row ?? [index, 0, 0, 0];
      return { id, name, soh, allocated, onorder, available: round(soh - allocated, 3) };
    });
  }

  private randomProfile(): StockProfile {
    const roll = this.random.next();
    return roll < 0.03 ? 'never' : roll < 0.08 ? 'overallocated' : 'normal';
  }
}

/** Builds `tiers[k]` assemblies whose BOM uses one tier k-1 assembly plus leaves and lower tiers. */
export function assignBomTiers(
  random: Random,
  assemblies: readonly ItemDraft[],
  leaves: readonly ItemDraft[],
): ItemDraft[][] {
  const tiers: ItemDraft[][] = [];
  let start = 0;
  for (const size of TIER_SIZES) {
    tiers.push(assemblies.slice(start, start + size));
    start += size;
  }
  tiers.forEach((tier, level) => {
    const lower = tiers.slice(0, level).flat();
    for (const assembly of tier) {
      const components = new Set<ItemDraft>();
      const previous = tiers[level - 1];
      if (previous) components.add(random.pick(previous));
      const wanted = random.int(2, 9);
      while (components.size < wanted) {
        components.add(
          lower.length > 0 && random.chance(0.3) ? random.pick(lower) : random.pick(leaves),
        );
      }
      assembly.bom = [...components].map((component) => ({
        component,
        qty: random.pick(BOM_QUANTITIES),
      }));
    }
  });
  return tiers;
}

export function randomKits(
  random: Random,
  owner: ItemDraft,
  pool: readonly ItemDraft[],
): KitDraft[] {
  const style = random.int(0, 3); // 0: no groupname field, 1: empty, 2: named, 3: mixed
  const entries = random.sample(
    pool.filter((item) => item !== owner),
    random.int(1, 5),
  );
  return entries.map((item) => {
    const kit: KitDraft = { item, qty: random.pick([1, 1, 2, 4, 0.5]), auto: random.chance(0.3) };
    const named = style === 2 || (style === 3 && random.chance(0.5));
    if (named) {
      kit.groupname = random.pick(KIT_GROUPS);
      if (random.chance(0.6)) kit.group_mode = random.int(0, 2);
    } else if (style === 1 || (style === 3 && random.chance(0.5))) {
      kit.groupname = '';
    }
    return kit;
  });
}
