/**
 * Sentences salespeople and support staff wrote, with what each should resolve to on the
 * built-in sandbox's fixed records (a copy of the product's shared sample, kept here so that
 * the repository tests itself). `expect` says the request; `or` an acceptable alternative.
 */
import type { Expected } from './corpus.js';

export const SHARED_SAMPLE: ReadonlyArray<readonly [string, Expected, Expected?]> = [
  ['have we got 50 WIDGET-9 in perth?', { item: 'WIDGET-9', quantity: 50, branch: 'perth' }],
  ['WIDGET-9?', { item: 'WIDGET-9' }],
  ['how many widget-9 in sydney', { item: 'WIDGET-9', branch: 'sydney' }],
  ['can I get 5 x WIDGET-9 from brisbane', { item: 'WIDGET-9', quantity: 5, branch: 'brisbane' }],
  ['is WIDGET-90 in stock?', { item: 'WIDGET-90' }],
  ['widget9 stock', { item: 'WIDGET-9' }, { asksWith: 'WIDGET-9' }],
  [
    'need 10 pcs of FST-M8-25 in melbourne',
    { item: 'FST-M8-25', quantity: 10, branch: 'melbourne' },
  ],
  ['blue widgets', { asks: 'several_items' }],
  ["what's in PLANT-88", { item: 'PLANT-88' }],
  ['50 widget-9 perth', { item: 'WIDGET-9', quantity: 50, branch: 'perth' }],
  ['can we do 3 WIDGET-9 today', { item: 'WIDGET-9', quantity: 3 }],
  ['100 units widget-9', { item: 'WIDGET-9', quantity: 100 }],
  ['WIDGET-9 and WIDGET-90 stock', { codes: ['WIDGET-9', 'WIDGET-90'] }],
  ['any CAFÉ-01 left?', { item: 'CAFÉ-01' }],
  ['is AB/12 available in hobart', { item: 'AB/12', branch: 'hobart' }],
  ["what's the stock of WIDGET-9-OLD", { item: 'WIDGET-9-OLD' }],
  // The command asks "Which branch?" for a branch the item does not have.
  ['5 WIDGET-9 in narnia', { item: 'WIDGET-9', quantity: 5, branch: 'narnia' }],
  ['who does accounts at ACME01', { contact: { code: 'ACME01' }, people: ['account'] }],
  [
    "who's the purchasing officer at acme industrial",
    { contact: { words: ['acme', 'industrial'] }, people: ['purchasing', 'officer'] },
  ],
  ['phone number for ACME01', { contact: { code: 'ACME01' }, people: [] }],
  ['email for jane at acme01', { contact: { code: 'acme01' }, people: ['jane'] }],
  ['contact for big mining', { contact: { words: ['big', 'mining'] }, people: [] }],
  ['who looks after ACMEWH01', { contact: { code: 'ACMEWH01' }, people: [] }],
  [
    'tell me when WIDGET-9 drops below 20 in perth',
    { watch: 'WIDGET-9', direction: 'below', threshold: 20, branch: 'perth' },
  ],
  ['let us know if PLANT-88 goes above 5', { watch: 'PLANT-88', direction: 'above', threshold: 5 }],
  ['help', { help: true }],
  ['hi', { notUnderstood: 'greeting' }],
  ['thanks!', { notUnderstood: 'greeting' }],
  ['stock', { notUnderstood: 'which_item' }],
  ['zxqv plorp', { notUnderstood: 'no_item' }],
];
