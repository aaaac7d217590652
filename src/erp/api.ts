/**
 * The ERP as the rest of the app sees it. `ErpClient` (undici, over HTTP) implements it and
 * reports what it read (events.ts); tests may hand in any other implementation.
 */
import { createHash } from 'node:crypto';
import type { Contact, ContactSearchEnvelope, Item, ItemSearchEnvelope } from './schemas.js';

/** An exact lookup: by code (the default) or by internal id (`target=id`). */
export type ErpRef = { code: string } | { id: number };

export interface ItemSearchParams {
  /** Sent joined with `+`; every keyword must match upstream. */
  keywords: readonly string[];
  category?: number;
  supplier?: number;
  /** 1..100; the ERP's default is 20. */
  limit?: number;
  /** Always sent (the spec does not show its default). */
  offset: number;
}

export type ContactType = 'client' | 'supplier';

export interface ContactSearchParams {
  keywords: readonly string[];
  type?: ContactType;
  limit?: number;
  offset: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Made by background work (the catalogue crawl, watch checks): see `ErpEventMap`. */
  background?: boolean;
}

export interface ErpApi {
  /**
   * Identifies the credential (base URL, company code, tenant; never the token) so that every
   * replica using the same credential shares one rate budget.
   */
  readonly credentialKey: string;
  getItem(ref: ErpRef, options?: CallOptions): Promise<Item>;
  getContact(ref: ErpRef, options?: CallOptions): Promise<Contact>;
  searchItems(params: ItemSearchParams, options?: CallOptions): Promise<ItemSearchEnvelope>;
  searchContact(params: ContactSearchParams, options?: CallOptions): Promise<ContactSearchEnvelope>;
}

export function isIdRef(ref: ErpRef): ref is { id: number } {
  return 'id' in ref;
}

/**
 * A credential key as it appears in Redis key names (budget, cache, catalogue): short, and
 * hashed, so no key carries a company code or URL.
 */
export function credentialTag(credentialKey: string): string {
  return createHash('sha256').update(credentialKey).digest('hex').slice(0, 16);
}
