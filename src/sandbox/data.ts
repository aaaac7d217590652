/**
 * The sandbox's data set: about 2,000 items over 15 categories, 40 suppliers and 12 branches,
 * and about 600 contacts. Deterministic for a seed (Faker and our PRNG are both seeded), and
 * quick (about a tenth of a second), so every test and benchmark can build its own copy or
 * share one through `SandboxOptions.data`.
 */
import { base, en, en_AU, Faker } from '@faker-js/faker';
import { CATEGORY_DEFS, makeBranches, makeCategories } from './dataCatalogue.js';
import { ContactFactory } from './dataContacts.js';
import { finaliseItem, type ItemDraft, rollUpCosts } from './dataDraft.js';
import { createBigAssembly, createFixedItems } from './dataFixed.js';
import { createFixedContacts } from './dataFixedContacts.js';
import { assignBomTiers, ItemFactory, randomKits, TIER_SIZES } from './dataItems.js';
import { createRandom, type Random } from './prng.js';
import type { NamedId, SandboxData } from './types.js';

export type { SandboxData } from './types.js';

export const DEFAULT_SANDBOX_SEED = 20_240_901;
const ITEM_COUNT = 2_000;
const SUPPLIER_COUNT = 40;

export function generateSandboxData(seed: number = DEFAULT_SANDBOX_SEED): SandboxData {
  const faker = new Faker({ locale: [en_AU, en, base] });
  faker.seed(seed);
  const random = createRandom(seed ^ 0x5eed);
  const branches = makeBranches();
  const categories = makeCategories();
  // Supplier ids start at 201 so that a category id passed as a supplier filter finds nothing.
  const suppliers = Array.from({ length: SUPPLIER_COUNT }, (_, index) => ({
    id: 201 + index,
    name: faker.company.name(),
  }));
  const items = generateItems(random, branches, suppliers).map((draft) =>
    finaliseItem(draft, { categories: byId(categories), suppliers: byId(suppliers) }),
  );
  const contactFactory = new ContactFactory(faker, random);
  createFixedContacts(contactFactory);
  contactFactory.createRandom();
  return { seed, branches, categories, suppliers, items, contacts: contactFactory.contacts };
}

function generateItems(random: Random, branches: NamedId[], suppliers: NamedId[]): ItemDraft[] {
  const factory = new ItemFactory(random, branches, suppliers);
  createFixedItems(factory);
  const assemblyCount = TIER_SIZES.reduce((sum, size) => sum + size, 0) + 12;
  const assemblies = Array.from({ length: assemblyCount }, () =>
    factory.create({ category: 'Assemblies' }),
  );
  // Widgets weigh three times as much, so that searches like "blue widget" fill several pages.
  const others = CATEGORY_DEFS.filter((def) => def.name !== 'Assemblies').flatMap((def) =>
    def.name === 'Widgets' ? [def, def, def] : [def],
  );
  const leaves: ItemDraft[] = [];
  while (factory.drafts.length < ITEM_COUNT - 1) {
    leaves.push(factory.create({ category: random.pick(others).name }));
  }
  const tiers = assignBomTiers(random, assemblies, leaves);
  createBigAssembly(factory, leaves, tiers[0] ?? []);
  for (const item of leaves) {
    if (random.chance(0.12)) item.kits = randomKits(random, item, leaves);
  }
  rollUpCosts(factory.drafts);
  return factory.drafts;
}

function byId(list: readonly NamedId[]): Map<number, NamedId> {
  return new Map(list.map((entry) => [entry.id, entry]));
}
