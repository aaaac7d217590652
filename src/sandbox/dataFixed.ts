/**
 * Well-known item records that docs, tests and benchmarks rely on: WIDGET-9 and its
 * three-level BOM and kits, codes that need URL encoding, and hostile or non-Latin text that a
 * Slack client must escape (`<!channel>` must never notify anyone).
 */
import type { ItemDraft } from './dataDraft.js';
import type { ItemFactory } from './dataItems.js';

/** Codes that must be percent-encoded in a path or a query. */
export const ENCODING_CODES = ['AB/12', 'A+B-7', '100%-X', 'CAFÉ-01'] as const;

export const HOSTILE_ITEM_CODES = [
  'EVIL-CHANNEL',
  'EVIL-HERE',
  'EVIL-MENTION',
  'EVIL-MRKDWN',
  'EVIL-LINK',
  'LONG-DESC',
  'JP-BOLT-M8',
  'AR-VALVE',
  'RU-NUT',
  'EMOJI-KIT',
  'ODD-UNICODE',
] as const;

const LONG_SENTENCE =
  'Heavy duty industrial widget assembly rated for continuous operation; see the data sheet for torque, temperature and ingress ratings. ';

function longDescription(): string {
  return `${LONG_SENTENCE.repeat(25)}End of description.`;
}

/** WIDGET-9 (3 BOM levels, kits in several group styles) and its relatives. */
function widgetFamily(f: ItemFactory): void {
  const bolt = f.create({
    category: 'Fasteners',
    code: 'FST-M8-25',
    description: 'Zinc-plated Steel Bolt M8 x 25',
  });
  const screw = f.create({
    category: 'Fasteners',
    code: 'FST-M4-10',
    description: 'Stainless Screw M4 x 10',
  });
  const grease = f.create({
    category: 'Lubricants',
    code: 'LUB-W9',
    description: 'Lithium Grease 400g',
  });
  const relay = f.create({
    category: 'Electrical',
    code: 'ELE-W9-RELAY',
    description: 'Relay 24V DC for widget motor',
  });
  const cable = f.create({
    category: 'Cables',
    code: 'CBL-W9',
    description: 'Flex Cable 3 core 1.5mm², per metre',
  });
  const gasket = f.create({
    category: 'Seals & Gaskets',
    code: 'SEL-W9-GASKET',
    description: 'Gasket, replacement seal for widget-9',
  });
  const bearing = f.create({
    category: 'Bearings',
    code: 'BRG-6201-W9',
    description: 'Ball Bearing 6201 sealed',
  });
  const motor = f.create({
    category: 'Motors',
    code: 'WIDGET-9-MOTOR',
    description: 'Gear Motor 0.37kW for WIDGET-9',
    disabled: false,
  });
  motor.bom = [
    { component: relay, qty: 1 },
    { component: cable, qty: 1.5 },
    { component: screw, qty: 4 },
  ];
  const core = f.create({
    category: 'Assemblies',
    code: 'WIDGET-9-CORE',
    description: 'Widget 9 core module',
    disabled: false,
  });
  core.bom = [
    { component: motor, qty: 1 },
    { component: bearing, qty: 2 },
    { component: screw, qty: 6 },
    { component: grease, qty: 0.05 },
  ];
  const frame = f.create({
    category: 'Assemblies',
    code: 'WIDGET-9-FRAME',
    description: 'Powder-coated frame, Widget 9',
    disabled: false,
  });
  frame.bom = [
    { component: bolt, qty: 8 },
    { component: gasket, qty: 1 },
  ];
  const widget = f.create({
    // The id the help, the manifest and the README use: `/stock id:123`.
    id: 123,
    category: 'Widgets',
    code: 'WIDGET-9',
    description: 'Blue Steel Widget 9mm, heavy duty',
    disabled: false,
    cost: 48.5,
    // Sydney, Melbourne (all allocated), Brisbane, Perth (over-allocated), Hobart (on order only).
    stock: f.stock([
      [0, 42, 5, 20],
      [1, 18, 18, 0],
      [2, 7, 0, 0],
      [3, 0, 2, 10],
      [5, 0, 0, 12],
    ]),
  });
  widget.bom = [
    { component: core, qty: 1 },
    { component: frame, qty: 1 },
    { component: bolt, qty: 4 },
    { component: grease, qty: 0.25 },
  ];
  const bracket = f.create({
    category: 'Widgets',
    code: 'WIDGET-9-BRACKET',
    description: 'Wall bracket for Widget 9',
    disabled: false,
  });
  const sealKit = f.create({
    category: 'Seals & Gaskets',
    code: 'WIDGET-9-SEALKIT',
    description: 'Seal kit, Widget 9',
    disabled: false,
  });
  const manual = f.create({
    category: 'Widgets',
    code: 'WIDGET-9-MANUAL',
    description: 'Printed manual, Widget 9',
    disabled: false,
  });
  const gloves = f.create({
    category: 'Safety',
    code: 'SAF-GLOVE-W9',
    description: 'Nitrile Glove L, box of 100',
    disabled: false,
  });
  widget.kits = [
    { item: bracket, qty: 2, auto: true, groupname: 'Mounting', group_mode: 1 },
    { item: sealKit, qty: 1, auto: false, groupname: 'Spares', group_mode: 0 },
    { item: gloves, qty: 1, auto: false, groupname: 'Spares' },
    { item: manual, qty: 1, auto: true },
    { item: cable, qty: 2.5, auto: false, groupname: '' },
  ];
  f.create({
    category: 'Widgets',
    code: 'WIDGET-9-OLD',
    description: 'Blue Widget 9mm (superseded by WIDGET-9)',
    disabled: true,
    profile: 'never',
  });
  f.create({
    category: 'Widgets',
    code: 'WIDGET-90',
    description: 'Red Nylon Widget 90mm',
    disabled: false,
    profile: 'overallocated',
  });
  f.create({
    category: 'Widgets',
    code: 'WIDGET-0',
    description: 'Widget sample, never stocked',
    disabled: false,
    profile: 'never',
  });
}

function encodingCodes(f: ItemFactory): void {
  f.create({
    category: 'Fasteners',
    code: 'AB/12',
    description: 'Adaptor Bracket 12mm (code with a slash)',
    disabled: false,
    profile: 'normal',
  });
  f.create({
    category: 'Fasteners',
    code: 'A+B-7',
    description: 'Anchor Bolt kit A+B size 7',
    disabled: false,
    profile: 'normal',
  });
  f.create({
    category: 'Safety',
    code: '100%-X',
    description: '100% cotton rag, 10kg bale',
    disabled: false,
    profile: 'normal',
  });
  f.create({
    category: 'Fasteners',
    code: 'CAFÉ-01',
    description: 'Café counter hinge, brass',
    disabled: false,
    profile: 'normal',
  });
}

function hostileItems(f: ItemFactory): void {
  const texts: Record<(typeof HOSTILE_ITEM_CODES)[number], string> = {
    'EVIL-CHANNEL': 'Widget <!channel> urgent recall',
    'EVIL-HERE': '<!here> free widgets in the lobby',
    'EVIL-MENTION': 'Ask <@U123> about this widget',
    'EVIL-MRKDWN': '*Bold* _italic_ ~strike~ `code` widget & co > less < more',
    'EVIL-LINK': 'Widget manual <https://evil.example|click> here',
    'LONG-DESC': longDescription(),
    'JP-BOLT-M8': 'ステンレス製六角ボルト M8×25',
    'AR-VALVE': 'صمام كروي نحاسي 25 مم',
    'RU-NUT': 'Гайка шестигранная М10, оцинкованная',
    'EMOJI-KIT': '🔧 Wrench set 🛠️ with 🚀 fast shipping',
    'ODD-UNICODE': 'Wid\u200Bget with zero\u00ADwidth and \u202Eright-to-left override',
  };
  for (const code of HOSTILE_ITEM_CODES) {
    f.create({
      category: 'Widgets',
      code,
      description: texts[code],
      disabled: false,
      profile: 'normal',
    });
  }
}

export function createFixedItems(f: ItemFactory): void {
  widgetFamily(f);
  encodingCodes(f);
  hostileItems(f);
}

/** The assembly with 80+ direct components (a long BOM list for the item card to page). */
export function createBigAssembly(
  f: ItemFactory,
  leaves: readonly ItemDraft[],
  subAssemblies: readonly ItemDraft[],
): ItemDraft {
  const big = f.create({
    category: 'Assemblies',
    code: 'PLANT-88',
    description: 'Packaging line, complete (86 components)',
    disabled: false,
    profile: 'normal',
  });
  const components = [...leaves.slice(0, 80), ...subAssemblies.slice(0, 6)];
  big.bom = components.map((component, index) => ({
    component,
    qty: (index % 7) + 1 + (index % 3 === 0 ? 0.5 : 0),
  }));
  return big;
}
