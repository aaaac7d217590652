/**
 * The team's own corpus for the sentence reader, on the sandbox's records: typos, lower-case
 * codes, units, branch abbreviations, contact phrasings, watches, codes inside long sentences,
 * and sentences that must not be answered. Grown from what people type in chat.
 */
import type { Expected } from './corpus.js';

const W9 = 'WIDGET-9';

export const OWN_CORPUS: ReadonlyArray<readonly [string, Expected, Expected?]> = [
  // Codes in any case, anywhere in the sentence.
  ['widget-9', { item: W9 }],
  ['Widget-9 please', { item: W9 }],
  ['do we have any widget-90?', { item: 'WIDGET-90' }],
  ['fst-m8-25 in stock?', { item: 'FST-M8-25' }],
  ['in stock? WIDGET-9', { item: W9 }],
  ['WIDGET-9 in stock?', { item: W9 }],
  ['hey can you check WIDGET-9 for me', { item: W9 }],
  ['customer on the phone asking about PLANT-88, what have we got', { item: 'PLANT-88' }],
  ['quick one - is there stock of AB/12 anywhere?', { item: 'AB/12' }],
  ['cafe-01 left?', { item: 'CAFÉ-01' }],
  ['CAFE-01', { item: 'CAFÉ-01' }],
  ['stock level for widget-9-old', { item: 'WIDGET-9-OLD' }],
  ['what is the status of WIDGET-9', { item: W9 }],
  ['price of WIDGET-9?', { item: W9 }],
  // Quantities: digits, x, pcs, units, of.
  ['WIDGET-9 x50', { item: W9, quantity: 50 }],
  ['x50 WIDGET-9', { item: W9, quantity: 50 }],
  ['50x WIDGET-9', { item: W9, quantity: 50 }],
  ['WIDGET-9 x 12', { item: W9, quantity: 12 }],
  ['12 pcs WIDGET-9', { item: W9, quantity: 12 }],
  ['12pcs of WIDGET-9', { item: W9, quantity: 12 }],
  ['200 units of PLANT-88', { item: 'PLANT-88', quantity: 200 }],
  ['need 7 widget-9', { item: W9, quantity: 7 }],
  ['do we have more than 40 WIDGET-9?', { item: W9, quantity: 40 }],
  ['can we ship 25 WIDGET-9 tomorrow', { item: W9, quantity: 25 }],
  ['WIDGET-9 in 2 days', { item: W9 }],
  ['WIDGET-9 by 3pm', { item: W9 }],
  // Branch words, whole, prefixes and abbreviations.
  ['WIDGET-9 in perth', { item: W9, branch: 'perth' }],
  ['WIDGET-9 at mel', { item: W9, branch: 'melbourne' }],
  ['20 WIDGET-9 syd', { item: W9, quantity: 20, branch: 'sydney' }],
  ['20 WIDGET-9 from bne', { item: W9, quantity: 20, branch: 'brisbane' }],
  ['do we have 20 WIDGET-9 in bris?', { item: W9, quantity: 20, branch: 'brisbane' }],
  ['10 x WIDGET-9 adl', { item: W9, quantity: 10, branch: 'adelaide' }],
  ['WIDGET-9 in the perth branch', { item: W9, branch: 'perth' }],
  ['WIDGET-9 at the gold coast store', { item: W9, branch: 'gold coast' }],
  ['5 WIDGET-9 gc', { item: W9, quantity: 5, branch: 'gold coast' }],
  ['WIDGET-9 50 Perth WA', { item: W9, quantity: 50, branch: 'perth' }],
  ['20 x WIDGET-9 for Perth', { item: W9, quantity: 20, branch: 'perth' }],
  ['any WIDGET-9 in hob?', { item: W9, branch: 'hobart' }],
  ['is there WIDGET-9 in stock in melbourne', { item: W9, branch: 'melbourne' }],
  ['5 WIDGET-9 in atlantis', { item: W9, quantity: 5, branch: 'atlantis' }],
  // Several codes.
  ['WIDGET-9, WIDGET-90', { codes: [W9, 'WIDGET-90'] }],
  ['compare WIDGET-9 with PLANT-88', { codes: [W9, 'PLANT-88'] }],
  ['5 WIDGET-9 and 10 WIDGET-90', { codes: [W9, 'WIDGET-90'] }],
  // Typos and unknown codes: asked back, never guessed.
  ['widgte-9 stock', { asksWith: W9 }],
  ['WIDGT-9 in perth', { asksWith: W9 }],
  ['WIDGET9', { item: W9 }, { asksWith: W9 }],
  ['widget 9mm blue steel', { asksWith: W9 }, { item: W9 }],
  ['PLANT-89', { asksWith: 'PLANT-88' }],
  // Item words through the index.
  ['blue widgets', { asks: 'several_items' }],
  ['how many blue widgets in syd', { asks: 'several_items' }],
  ['red nylon widget', { asks: 'several_items' }],
  ['packaging line', { item: 'PLANT-88' }],
  ['need some bolts', { asks: 'several_items' }],
  ['café counter hinge', { item: 'CAFÉ-01' }],
  // Contacts: codes, names, roles, "looks after".
  ['who looks after ACME01', { contact: { code: 'ACME01' }, people: [] }],
  ['who looks after acme', { contact: { words: ['acme'] }, people: [] }],
  ["who's our contact at big mining", { contact: { words: ['big', 'mining'] }, people: [] }],
  ['phone for ACME02', { contact: { code: 'ACME02' }, people: [] }],
  ['email address for ACMEWH01', { contact: { code: 'ACMEWH01' }, people: [] }],
  ['who handles purchasing at ACME01', { contact: { code: 'ACME01' }, people: ['purchasing'] }],
  ['who is the director at ACME01?', { contact: { code: 'ACME01' }, people: ['director'] }],
  [
    'contact details for john smith at ACME01',
    { contact: { code: 'ACME01' }, people: ['john', 'smith'] },
  ],
  ['how do I reach acme logistics', { contact: { words: ['acme', 'logistics'] }, people: [] }],
  ['ACME01 accounts contact', { contact: { code: 'ACME01' }, people: ['account'] }],
  ['who does accounts at acme', { contact: { words: ['acme'] }, people: ['account'] }],
  ['who does accounts?', { notUnderstood: 'which_account' }],
  // Watches: proposed, never set.
  ['alert me when WIDGET-9 < 10', { watch: W9, direction: 'below', threshold: 10 }],
  ['alert me when WIDGET-9 <10', { watch: W9, direction: 'below', threshold: 10 }],
  ['let me know when WIDGET-9 is back in stock', { watch: W9, direction: 'above', threshold: 0 }],
  [
    'ping me if PLANT-88 falls under 3 at hobart',
    { watch: 'PLANT-88', direction: 'below', threshold: 3, branch: 'hobart' },
  ],
  [
    'notify us when WIDGET-90 goes over 100',
    { watch: 'WIDGET-90', direction: 'above', threshold: 100 },
  ],
  [
    'tell me when widget-9 drops to less than 15 in syd',
    { watch: W9, direction: 'below', threshold: 15, branch: 'sydney' },
  ],
  ['tell me when WIDGET-9 runs low', { notUnderstood: 'watch_threshold' }],
  // Help, greetings and what cannot be read: no lookup.
  ['help me', { help: true }],
  ['what can you do?', { help: true }],
  ['?', { help: true }],
  ['hello', { notUnderstood: 'greeting' }],
  ['thank you!', { notUnderstood: 'greeting' }],
  ['ok thanks mate', { notUnderstood: 'greeting' }],
  ['good morning', { notUnderstood: 'greeting' }],
  ['how many do we have?', { notUnderstood: 'which_item' }],
  ['in stock?', { notUnderstood: 'which_item' }],
  ['asdf qwerty', { notUnderstood: 'no_item' }],
  ['the quick brown fox', { notUnderstood: 'no_item' }],
  ['lunch at 12?', { notUnderstood: 'no_item' }],
  ['🙂', { notUnderstood: 'unreadable' }, { notUnderstood: 'empty' }],
];
