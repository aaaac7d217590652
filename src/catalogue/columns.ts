/**
 * How the catalogue index keeps its items: in columns (a typed array a number, one copy of
 * each shared name) rather than one object each, which is most of what the index saves; and
 * the table that finds a code's slot in any case.
 */
/** Numbers kept per item, each in its own typed array (NaN stands for undefined). */
export const NUMBER_COLUMNS = [
  'categoryId',
  'price',
  'soh',
  'allocated',
  'onorder',
  'available',
  'seenAt',
] as const;
export type NumberColumn = (typeof NUMBER_COLUMNS)[number];

/** Names many items share (category, supplier, status): each string kept once, items hold its number. */
export class Names {
  private readonly numbers = new Map<string, number>();
  private readonly names: string[] = [];

  numberOf(name: string): number {
    let n = this.numbers.get(name);
    if (n === undefined) {
      n = this.names.length;
      this.names.push(name);
      this.numbers.set(name, n);
    }
    return n;
  }

  /** The number of a name already kept, or -1 (nothing to match against then). */
  find(name: string): number {
    return this.numbers.get(name) ?? -1;
  }

  name(n: number): string {
    return this.names[n] ?? '';
  }
}

export function newNumberColumns(capacity: number): Record<NumberColumn, Float64Array> {
  const columns = {} as Record<NumberColumn, Float64Array>;
  for (const column of NUMBER_COLUMNS) columns[column] = new Float64Array(capacity);
  return columns;
}

/** FNV-1a over the UTF-16 units: spreads codes that share long prefixes (`WID-00001`…). */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Codes to slots, in any case: an item card asks for its code's item every time it is drawn,
 * and a scan of every slot grows with the catalogue. A `Map` of lower-case codes would hold a
 * second string and an entry object an item, more than the columns spend on an item's
 * figures; this table holds one 32-bit number a place (slot + 1, 0 for empty), at most half
 * full, and reads the codes from the store's own column.
 */
export class CodeTable {
  private places = new Int32Array(1_024);
  private used = 0;
  /** A slot's code changed: its place no longer matches its code, so the table is rebuilt. */
  private stale = false;

  constructor(private readonly codeOf: readonly string[]) {}

  /** The first slot (in slot order) whose code is this one but for case. */
  find(code: string): number | undefined {
    if (this.stale) this.rebuild();
    const key = code.toLowerCase();
    const mask = this.places.length - 1;
    for (let at = hashOf(key) & mask; ; at = (at + 1) & mask) {
      const place = this.places[at] ?? 0;
      if (place === 0) return undefined;
      if (this.keyOf(place - 1) === key) return place - 1;
    }
  }

  /** A new slot, its code already in the column. */
  added(slot: number): void {
    if (this.stale) return;
    const key = this.keyOf(slot);
    const mask = this.places.length - 1;
    for (let at = hashOf(key) & mask; ; at = (at + 1) & mask) {
      const place = this.places[at] ?? 0;
      if (place === 0) {
        this.places[at] = slot + 1;
        this.used += 1;
        if (this.used * 2 > this.places.length) this.rebuild();
        return;
      }
      // Slots come in order, so the one already here is the first with this code.
      if (this.keyOf(place - 1) === key) return;
    }
  }

  /** A slot's code changed (rare: the ERP renamed an item); rebuilt on the next `find`. */
  renamed(): void {
    this.stale = true;
  }

  /** Every slot is gone (a snapshot replaces the store). */
  clear(): void {
    this.places = new Int32Array(1_024);
    this.used = 0;
    this.stale = false;
  }

  private keyOf(slot: number): string {
    return (this.codeOf[slot] ?? '').toLowerCase();
  }

  /** Places for every slot there is, at most half of them used. */
  private rebuild(): void {
    let size = 1_024;
    while (size < this.codeOf.length * 2 + 2) size *= 2;
    this.places = new Int32Array(size);
    this.used = 0;
    this.stale = false;
    for (let slot = 0; slot < this.codeOf.length; slot += 1) this.added(slot);
  }
}
