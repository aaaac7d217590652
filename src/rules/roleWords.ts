/**
 * The words people use for a role, and what the ERP's addressbook calls it: "who's the buyer
 * at acme" means the Purchasing Officer, "AP" is Accounts Payable, "the warehouse guy" the
 * storeperson. One table, read by the people matching (src/rules/people.ts): a word matches a
 * person when it, or one of the words it stands for, is in their name, role or department.
 * Keys and values are lower case; a value may be several words (matched as one phrase).
 */
export const ROLE_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  // Buying.
  buyer: ['purchasing', 'procurement', 'buyer'],
  buyers: ['purchasing', 'procurement', 'buyer'],
  buying: ['purchasing', 'procurement'],
  procurement: ['purchasing'],
  purchaser: ['purchasing'],
  purchases: ['purchasing'],
  orders: ['purchasing'],
  // Money owed and paid.
  ap: ['accounts payable'],
  payables: ['accounts payable'],
  payable: ['accounts payable'],
  invoices: ['accounts payable', 'accounts'],
  invoice: ['accounts payable', 'accounts'],
  ar: ['accounts receivable', 'accounts'],
  receivables: ['accounts receivable', 'accounts'],
  billing: ['accounts'],
  finance: ['accounts'],
  accountant: ['accounts'],
  bookkeeper: ['accounts'],
  payments: ['accounts payable', 'accounts'],
  // The warehouse and the store.
  warehouse: ['warehouse', 'store', 'storeperson'],
  storeperson: ['store', 'warehouse'],
  storeman: ['store', 'warehouse', 'storeperson'],
  storemen: ['store', 'warehouse', 'storeperson'],
  stores: ['store', 'warehouse'],
  dispatch: ['warehouse', 'store'],
  receiving: ['warehouse', 'store'],
  goods: ['warehouse', 'store'],
  // Running the place.
  boss: ['director', 'manager', 'management'],
  owner: ['director'],
  md: ['director'],
  ceo: ['director'],
  gm: ['manager', 'director'],
  ops: ['operations'],
  // The workshop and maintenance.
  workshop: ['workshop'],
  foreman: ['supervisor', 'workshop'],
  maintenance: ['maintenance'],
  planner: ['planner'],
  // The front desk and sales.
  reception: ['receptionist'],
  front: ['receptionist'],
  sales: ['sales'],
  rep: ['sales representative', 'sales'],
  salesperson: ['sales representative', 'sales'],
};

/** What a typed role word may be found as: itself, and what the table says it stands for. */
export function roleForms(word: string): readonly string[] {
  const forms = Object.hasOwn(ROLE_SYNONYMS, word) ? (ROLE_SYNONYMS[word] ?? []) : [];
  // `ap`, `ar`, `md`: two letters are inside too many names to count as themselves.
  return forms.length > 0 && word.length <= 2 ? forms : [word, ...forms];
}
