/**
 * The catalogue's vocabulary (branches, categories, materials) and the building blocks for
 * random items: codes, descriptions, prices and branch stock.
 */
import type { Random } from './prng.js';
import type { BranchStockRecord, NamedId } from './types.js';

const BRANCH_NAMES = [
  'Sydney',
  'Melbourne',
  'Brisbane',
  'Perth',
  'Adelaide',
  'Hobart',
  'Darwin',
  'Canberra',
  'Newcastle',
  'Geelong',
  'Townsville',
  'Gold Coast',
] as const;

export interface CategoryDef {
  name: string;
  prefix: string;
  nouns: readonly string[];
  sizes: readonly string[];
  /** Sold by the metre or litre: stock figures have decimals. */
  fractional?: boolean;
}

export const CATEGORY_DEFS: readonly CategoryDef[] = [
  {
    name: 'Assemblies',
    prefix: 'ASM',
    nouns: ['Assembly', 'Sub-assembly', 'Module', 'Unit'],
    sizes: ['Mk I', 'Mk II', 'Type A', 'Type B', 'Standard', 'Heavy Duty'],
  },
  {
    name: 'Widgets',
    prefix: 'WID',
    nouns: ['Widget', 'Gizmo', 'Sprocket Widget', 'Flange Widget'],
    sizes: ['9mm', '12mm', '20mm', 'Small', 'Large', 'XL'],
  },
  {
    name: 'Fasteners',
    prefix: 'FST',
    nouns: ['Bolt', 'Nut', 'Washer', 'Screw', 'Rivet', 'Anchor'],
    sizes: ['M4', 'M6', 'M8', 'M10', 'M12', '1/4"', '3/8"'],
  },
  {
    name: 'Bearings',
    prefix: 'BRG',
    nouns: ['Ball Bearing', 'Roller Bearing', 'Bushing', 'Pillow Block'],
    sizes: ['6201', '6204', '6305', '25mm', '40mm'],
  },
  {
    name: 'Seals & Gaskets',
    prefix: 'SEL',
    nouns: ['O-Ring', 'Gasket', 'Lip Seal', 'Seal Kit'],
    sizes: ['20x2', '35x3', '50mm', '100mm', 'DN50'],
  },
  {
    name: 'Hydraulics',
    prefix: 'HYD',
    nouns: ['Hose', 'Fitting', 'Cylinder', 'Coupling', 'Filter'],
    sizes: ['1/4" BSP', '1/2" BSP', '3/4" JIC', '250 bar', '16L'],
  },
  {
    name: 'Pneumatics',
    prefix: 'PNU',
    nouns: ['Solenoid Valve', 'Push-in Fitting', 'Air Cylinder', 'Regulator'],
    sizes: ['6mm', '8mm', '10mm', '1/4"', '32x100'],
  },
  {
    name: 'Electrical',
    prefix: 'ELE',
    nouns: ['Contactor', 'Relay', 'Circuit Breaker', 'Switch', 'Terminal Block'],
    sizes: ['10A', '16A', '32A', '24V DC', '240V AC'],
  },
  {
    name: 'Cables',
    prefix: 'CBL',
    nouns: ['Cable', 'Flex', 'Conduit', 'Wire'],
    sizes: ['2.5mm²', '4mm²', '3 core', '5 core', '25m'],
    fractional: true,
  },
  {
    name: 'Motors',
    prefix: 'MOT',
    nouns: ['Electric Motor', 'Gear Motor', 'Servo Motor', 'Stepper Motor'],
    sizes: ['0.37kW', '0.75kW', '1.5kW', '4kW', '7.5kW'],
  },
  {
    name: 'Pumps',
    prefix: 'PMP',
    nouns: ['Centrifugal Pump', 'Diaphragm Pump', 'Gear Pump', 'Pump Seal'],
    sizes: ['25mm', '50mm', '80mm', '1.1kW', '2.2kW'],
  },
  {
    name: 'Valves',
    prefix: 'VLV',
    nouns: ['Ball Valve', 'Gate Valve', 'Check Valve', 'Butterfly Valve'],
    sizes: ['DN15', 'DN25', 'DN50', '1"', '2"'],
  },
  {
    name: 'Tools',
    prefix: 'TLS',
    nouns: ['Spanner', 'Socket Set', 'Torque Wrench', 'Drill Bit', 'Crimper'],
    sizes: ['10mm', '13mm', '1/2" drive', '12 piece', 'Pro'],
  },
  {
    name: 'Safety',
    prefix: 'SAF',
    nouns: ['Glove', 'Safety Glasses', 'Ear Muff', 'Hi-Vis Vest', 'Hard Hat'],
    sizes: ['S', 'M', 'L', 'XL', 'Class 5'],
  },
  {
    name: 'Lubricants',
    prefix: 'LUB',
    nouns: ['Grease', 'Gear Oil', 'Hydraulic Oil', 'Chain Lube'],
    sizes: ['400g', '1L', '5L', '20L', '205L'],
    fractional: true,
  },
];

const COLOURS = ['Blue', 'Red', 'Black', 'Green', 'Yellow', 'White', 'Grey', 'Orange'];
const MATERIALS = [
  'Steel',
  'Stainless',
  'Brass',
  'Nylon',
  'Aluminium',
  'Zinc-plated',
  'PVC',
  'Rubber',
  'Galvanised',
];

export function makeBranches(): NamedId[] {
  return BRANCH_NAMES.map((name, index) => ({ id: index + 1, name }));
}

export function makeCategories(): NamedId[] {
  return CATEGORY_DEFS.map((def, index) => ({ id: index + 1, name: def.name }));
}

export function randomDescription(random: Random, def: CategoryDef): string {
  const parts = [
    random.chance(0.5) ? random.pick(COLOURS) : undefined,
    random.chance(0.7) ? random.pick(MATERIALS) : undefined,
    random.pick(def.nouns),
    random.pick(def.sizes),
  ];
  const description = parts.filter((part) => part !== undefined).join(' ');
  return random.chance(0.15)
    ? `${description}, ${random.pick(['pack of 10', 'bulk', 'OEM', 'imported'])}`
    : description;
}

/** Codes in a few real-world styles (`FST-10234`, `FST10234`, `FST-102-B`), unique. */
export function randomCode(random: Random, def: CategoryDef, used: Set<string>): string {
  for (;;) {
    const number = random.int(100, 99_999);
    const style = random.int(0, 2);
    const code =
      style === 0
        ? `${def.prefix}-${number}`
        : style === 1
          ? `${def.prefix}${number}`
          : `${def.prefix}-${number % 1000}-${String.fromCharCode(65 + random.int(0, 5))}`;
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
  }
}

export function round(value: number, places = 2): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

export function randomCost(random: Random, def: CategoryDef): number {
  const scale =
    def.name === 'Assemblies' || def.name === 'Motors' || def.name === 'Pumps' ? 400 : 40;
  return round(0.2 + random.next() ** 2 * scale + random.next() * scale * 0.1);
}

export type StockProfile = 'normal' | 'never' | 'overallocated';

/** One row per branch (every branch is listed; zeros where the item was never stocked). */
export function randomStock(
  random: Random,
  branches: readonly NamedId[],
  profile: StockProfile,
  fractional: boolean,
): BranchStockRecord[] {
  const stocked = new Set(
    profile === 'never' ? [] : random.sample(branches, random.int(1, 7)).map((b) => b.id),
  );
  const overBranch = profile === 'overallocated' ? random.pick([...stocked]) : undefined;
  return branches.map(({ id, name }) => {
    if (!stocked.has(id)) return { id, name, soh: 0, allocated: 0, onorder: 0, available: 0 };
    const soh = fractional ? random.int(0, 5000) / 10 : random.chance(0.1) ? 0 : random.int(1, 250);
    // Over-allocated items are fully allocated everywhere and over-allocated in one branch,
    // so the item's total available is negative too.
    const allocated =
      id === overBranch
        ? round(soh + random.int(1, 30), 1)
        : profile === 'overallocated'
          ? soh
          : round(Math.min(soh, random.int(0, 40)), 1);
    const onorder = random.chance(0.3) ? random.int(1, 100) : 0;
    return { id, name, soh, allocated, onorder, available: round(soh - allocated, 3) };
  });
}
