/**
 * Feeds the catalogue from every item record and search row the app receives: a decorator
 * over the ERP the lookup service calls, so user lookups fill the index at no extra cost.
 * Contacts pass through untouched (never indexed: personal data).
 */
import type { ErpApi } from '../erp/api.js';
import type { CatalogueStore } from './store.js';

export function catalogueFeed(erp: ErpApi, store: CatalogueStore, now: () => number): ErpApi {
  return {
    credentialKey: erp.credentialKey,
    getItem: async (ref, options) => {
      const item = await erp.getItem(ref, options);
      store.addItem(item, now());
      return item;
    },
    searchItems: async (params, options) => {
      const envelope = await erp.searchItems(params, options);
      store.addRows(envelope.items, now(), params.category, params.supplier);
      return envelope;
    },
    getContact: (ref, options) => erp.getContact(ref, options),
    searchContact: (params, options) => erp.searchContact(params, options),
  };
}
