/**
 * How the catalogue index keeps its items: in columns (a typed array a number, one copy of
 * each shared name) rather than one object each, which is most of what the index saves.
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
