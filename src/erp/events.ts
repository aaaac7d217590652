/**
 * What the ERP client tells whoever listens: each record and search page it read, and how each
 * call ended. The composition root subscribes the catalogue index, the watch feed and
 * readiness here, so none of them wraps the client and a lookup goes straight down to it
 * (docs/architecture.md, "Layers"). Listeners run synchronously after the answer is decoded;
 * one that throws is logged and never fails the call.
 */
import { EventEmitter } from 'node:events';
import type { ErpEndpoint } from './errors.js';
import type { Contact, Item, ItemSearchParams, ItemSearchRow } from './schemas.js';

/**
 * `background`: the call was made by background work (the catalogue crawl, watch checks),
 * which uses its own reads; the feeds that learn from people's lookups pass it over.
 */
export interface ErpEventMap {
  /** A getItem answered with this record. */
  itemRead: [event: { item: Item; background: boolean }];
  /** A getContact answered with this record. */
  contactRead: [event: { contact: Contact; background: boolean }];
  /** A searchItems page answered with these rows, for these parameters. */
  itemRowsRead: [event: { rows: ItemSearchRow[]; params: ItemSearchParams; background: boolean }];
  /** A call ended: with `error` when it failed (before or after reaching the ERP). */
  callEnded: [event: { endpoint: ErpEndpoint; error?: unknown }];
}

export class ErpEvents extends EventEmitter<ErpEventMap> {}
