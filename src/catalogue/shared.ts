/**
 * Sharing the catalogue: between replicas through Redis (one crawls at a time under a lease;
 * its snapshot is published for all), or across restarts through a file (CATALOGUE_FILE).
 *
 * The snapshot is gzipped JSON (about 40 bytes an item compressed): replicas rebuild their
 * own FlexSearch index from it, which takes seconds for 100,000 items but happens only when
 * the crawl publishes a new pass.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { type Lease, redisLease } from '../ops/redisLease.js';
import type { CatalogueSnapshot } from './records.js';

const num = z.number();
const optionalNumber = z.number().optional();

const SnapshotSchema = z.object({
  version: z.literal(1),
  items: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      description: z.string(),
      category: z.string(),
      categoryId: optionalNumber,
      supplier: z.string(),
      status: z.string(),
      price: optionalNumber,
      soh: num,
      allocated: num,
      onorder: num,
      available: num,
      hasBom: z.boolean(),
      hasKit: z.boolean(),
      seenAt: num,
    }),
  ),
  categories: z.array(z.tuple([z.number().int(), z.string()])),
  suppliers: z.array(z.tuple([z.number().int(), z.string()])).optional(),
  state: z.object({
    lastFullPassAt: optionalNumber,
    knownTotal: optionalNumber,
    wordless: z.boolean().optional(),
  }),
});

/** Undefined fields do not survive JSON; the schema gives them back as undefined. */
function parseSnapshot(json: unknown): CatalogueSnapshot {
  const parsed = SnapshotSchema.parse(json);
  return {
    version: 1,
    categories: parsed.categories,
    suppliers: parsed.suppliers ?? [],
    items: parsed.items.map((item) => ({
      ...item,
      categoryId: item.categoryId,
      price: item.price,
    })),
    state: {
      lastFullPassAt: parsed.state.lastFullPassAt,
      knownTotal: parsed.state.knownTotal,
      wordless: parsed.state.wordless,
    },
  };
}

export function encodeSnapshot(snapshot: CatalogueSnapshot): Buffer {
  return gzipSync(JSON.stringify(snapshot));
}

export function decodeSnapshot(data: Buffer): CatalogueSnapshot {
  return parseSnapshot(JSON.parse(gunzipSync(data).toString('utf8')));
}

export async function saveSnapshotFile(path: string, snapshot: CatalogueSnapshot): Promise<void> {
  // Written aside and renamed, so a crash mid-write never leaves half a file to load.
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, encodeSnapshot(snapshot));
  await rename(temporary, path);
}

/** Undefined when there is no file yet. A damaged file throws (the caller logs and ignores). */
export async function loadSnapshotFile(path: string): Promise<CatalogueSnapshot | undefined> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return decodeSnapshot(data);
}

/** The Redis side: a crawl lease (SET NX PX) and the published snapshot with its version. */
export class RedisCatalogueShare {
  private readonly lease: Lease;
  private readonly snapshotKey: string;
  private readonly versionKey: string;

  constructor(
    private readonly redis: Redis,
    /** e.g. `erp-lookups:catalogue:<credential hash>:` */
    prefix: string,
    leaseMs: number,
  ) {
    this.lease = redisLease(redis, `${prefix}lease`, leaseMs);
    this.snapshotKey = `${prefix}snapshot`;
    this.versionKey = `${prefix}version`;
  }

  /** Takes the lease, or renews it when this replica holds it. */
  holdLease(): Promise<boolean> {
    return this.lease.hold();
  }

  releaseLease(): Promise<void> {
    return this.lease.release();
  }

  async publish(snapshot: CatalogueSnapshot, version: number): Promise<void> {
    await this.redis
      .multi()
      .set(this.snapshotKey, encodeSnapshot(snapshot))
      .set(this.versionKey, String(version))
      .exec();
  }

  async publishedVersion(): Promise<number | undefined> {
    const raw = await this.redis.get(this.versionKey);
    const version = raw === null ? Number.NaN : Number(raw);
    return Number.isFinite(version) ? version : undefined;
  }

  async fetch(): Promise<CatalogueSnapshot | undefined> {
    const data = await this.redis.getBuffer(this.snapshotKey);
    return data === null ? undefined : decodeSnapshot(data);
  }
}
