/**
 * The words the sentence reader knows by heart: what asks for help, what greets, what makes a
 * sentence a contact question or a watch, and the filler that carries no item, branch or
 * person. Every list is lower case, without accents; the reader folds what it reads the same
 * way. A word missing from the filler lists is read as an item, branch or person word, so a
 * gap here can only make the reader ask back, never answer for something else.
 */

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

/** A sentence made of these (and filler) is a greeting or thanks: a short reply, no lookup. */
export const GREETINGS = set(`
  hi hello hey hiya howdy yo gday g'day morning afternoon evening good thanks thank thankyou
  thx ty ta cheers ok okay k cool great nice awesome sweet perfect bye cya later all there
  everyone team mate legend much lot very so you
`);

/** A sentence made of these (and filler) asks for help. */
export const HELP_WORDS = set(`help usage commands command examples example instructions`);

/** Whole sentences that ask what the app does. */
export const HELP_SENTENCES: readonly string[] = [
  'what can you do',
  'what do you do',
  'what can i ask',
  'what can i ask you',
  'how does this work',
  'how do i use this',
  'how do i use you',
  'how does it work',
  'what are you',
  'who are you',
];

/** Words that make a sentence a question about a contact, whatever else it holds. */
export const CONTACT_WORDS = set(`
  contact contacts phone phones ph mobile mob cell email emails e-mail mail call ring reach
  rep salesperson salesrep address
  terms credit discount
`);

/** Two-word phrases that do the same (`who looks after ACME01`). */
export const CONTACT_PHRASES: readonly (readonly [string, string])[] = [
  ['looks', 'after'],
  ['look', 'after'],
  ['looking', 'after'],
  ['account', 'manager'],
  ['speak', 'to'],
  ['talk', 'to'],
  ['get', 'hold'],
  // An account's terms and standing are a contact question (`is acme on stop credit?`),
  // answered as a contact card whose terms a channel never sees; never an item's branch words.
  ['credit', 'limit'],
  ['credit', 'terms'],
  ['payment', 'terms'],
  ['stop', 'credit'],
  ['on', 'stop'],
];

/** `who …`: a contact question unless the sentence names an item code the index knows. */
export const WHO_WORDS = set(`who whom whose`);

/** Words before the account in a contact question (`at ACME01`, `for big mining`). */
export const ACCOUNT_MARKERS = set(`at for from with of after @`);

/** Words that make a sentence with a direction and a number a watch request. */
export const WATCH_TRIGGERS = set(`
  tell let know alert alerts notify notification ping warn warning watch remind message dm
  when whenever once if
`);

/** A direction word, or the first of a two-word one (`less than`, `drops below`). */
export const BELOW_WORDS = set(`below under beneath lower less fewer <`);
export const ABOVE_WORDS = set(`above over exceeds higher more greater >`);

/** Words before a branch (`in perth`, `at mel`); `for` only before a branch the app knows. */
export const BRANCH_MARKERS = set(`in at from @ ex`);

/** Words after a number that make it something other than a quantity (`in 2 days`). */
export const NOT_QUANTITY_UNITS = set(`
  day days week weeks wk wks month months year years yr yrs hour hours hr hrs h minute minutes
  min mins sec secs second seconds am pm oclock o'clock mm cm mg % percent pct
  dollars dollar bucks aud usd th st nd rd
`);

/** Words after a number that belong to it (`50 pcs`, `5 x`, `10 units of`). */
export const UNIT_WORDS = set(`
  x pc pcs piece pieces unit units ea each off lots qty m metre metres meter meters km kg
  kgs kilo kilos g l litre litres liter liters ml box boxes roll rolls
`);

/** Filler: question words, verbs, pronouns and stock talk that name nothing. */
export const FILLER = set(`
  a an the and or but so to of on in at from for by with about into onto as than then
  is are was were be been being am do does did done doing have has had having got get gets
  getting can could would should will shall may might must need needs needed want wants wanted
  i me my mine we us our ours you your yours they them their it its this that these those
  there here what whats which how many much any some anything something all every each
  left remaining available availability avail stock stocks stocked instock onhand soh
  inventory level levels supply supplied supplies count counts on hand in-stock quantity qty
  please pls plz thanks thank cheers mate ok okay hi hello hey
  check checking checked look looking see show tell find give lookup search know
  today tomorrow now asap urgently urgent soon quickly currently right still yet
  price prices pricing cost costs details info information card status figures figure
  item items product products part parts sku skus code codes number
  branch branches store stores warehouse warehouses site sites location locations office depot
  dc whole company-wide companywide overall total totals everywhere across
  just only also too really actually maybe perhaps possibly roughly about around approx
  enough if whether when where why who whom whose person people someone somebody guy
  does handles handle handling runs run manages manage managing deals deal in-charge charge
  job customer order orders ordering order's ship shipping send sending deliver delivery
  let lets let's again more less like low high quick one ones anywhere somewhere everywhere
  someone anyone mate guys team folks hey ask asks asking asked wondering wonder question
  drops drop dropped falls fall goes go gets dips dip rises rise hits hit reaches becomes
`);

/** Articles and possessives skipped right after a branch or account marker (`in the perth …`). */
export const ARTICLES = set(`the our a an their your my`);

/** Words after a branch name that only say it is a branch (`the perth branch`). */
export const PLACE_NOUNS = set(`
  branch branches store stores warehouse warehouses site sites office depot dc location
`);

/** The plural `s` goes from item and people words: the ERP matches substrings. */
export function singular(word: string): string {
  if (word.length <= 3 || word.endsWith('ss') || word.endsWith('us')) return word;
  if (/(?:ch|sh|x)es$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}
