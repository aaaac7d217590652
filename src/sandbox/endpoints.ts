/**
 * The four endpoints over the data set, independent of HTTP plumbing (auth, limits and faults
 * live in server.ts). Each returns a `Reply` describing status, body and format.
 *
 * Lookups by code are exact and case-sensitive (`widget-9` is a 404; the spec says "exact
 * item code"), with no Unicode normalisation: a client must send `CAFÉ-01` as NFC, like the
 * stored code.
 */

import type { SandboxBehaviour } from './options.js';
import {
  BadParameter,
  type LookupKey,
  parseContactSearch,
  parseItemSearch,
  parseLookup,
} from './params.js';
import {
  contactSearchRow,
  contactXml,
  debugText,
  errorBody,
  itemSearchRow,
  itemXml,
  searchEnvelope,
} from './render.js';
import { SearchIndex } from './search.js';
import type { SandboxContact, SandboxData, SandboxItem } from './types.js';

export type Endpoint = 'getItem' | 'getContact' | 'searchItems' | 'searchContact';

export interface Reply {
  status: number;
  /** JSON replies hold the value to serialise; xml and text replies hold the text. */
  body: unknown;
  format: 'json' | 'xml' | 'text';
}

interface EndpointRequest {
  endpoint: Endpoint;
  /** The decoded path value of getItem/getContact (undefined when absent). */
  pathValue: string | undefined;
  params: URLSearchParams;
  wantsXml: boolean;
  behaviour: SandboxBehaviour;
}

export function errorReply(status: number, message: string): Reply {
  return { status, body: errorBody(status, message), format: 'json' };
}

export class SandboxEndpoints {
  private readonly itemsByCode: Map<string, SandboxItem>;
  private readonly itemsById: Map<number, SandboxItem>;
  private readonly contactsByCode: Map<string, SandboxContact>;
  private readonly contactsById: Map<number, SandboxContact>;
  private readonly index: SearchIndex;

  constructor(data: SandboxData) {
    this.itemsByCode = new Map(data.items.map((item) => [item.record.code, item]));
    this.itemsById = new Map(data.items.map((item) => [item.record.id, item]));
    this.contactsByCode = new Map(data.contacts.map((contact) => [contact.record.code, contact]));
    this.contactsById = new Map(data.contacts.map((contact) => [contact.record.clientid, contact]));
    this.index = new SearchIndex(data.items, data.contacts);
  }

  handle(request: EndpointRequest): Reply {
    try {
      switch (request.endpoint) {
        case 'getItem':
          return this.getItem(request);
        case 'getContact':
          return this.getContact(request);
        case 'searchItems':
          return this.searchItems(request);
        case 'searchContact':
          return this.searchContact(request);
      }
    } catch (error) {
      if (error instanceof BadParameter) return errorReply(400, error.message);
      throw error;
    }
  }

  private getItem({ pathValue, params, wantsXml }: EndpointRequest): Reply {
    const key = parseLookup(pathValue ?? '', params);
    const item = find(key, this.itemsByCode, this.itemsById);
    if (!item) return errorReply(404, 'Item not found');
    return wantsXml
      ? { status: 200, body: itemXml(item.record), format: 'xml' }
      : { status: 200, body: item.record, format: 'json' };
  }

  private getContact({ pathValue, params, wantsXml }: EndpointRequest): Reply {
    const key = parseLookup(pathValue ?? '', params);
    const contact = find(key, this.contactsByCode, this.contactsById);
    if (!contact) return errorReply(404, 'Contact not found');
    return wantsXml
      ? { status: 200, body: contactXml(contact.record), format: 'xml' }
      : { status: 200, body: contact.record, format: 'json' };
  }

  private searchItems({ params, behaviour }: EndpointRequest): Reply {
    const query = parseItemSearch(params, behaviour.requireQuery);
    const outcome = this.index.searchItems(query);
    const rows = outcome.page.map(itemSearchRow);
    const envelope = searchEnvelope('items', query, rows, outcome.total, behaviour.countMeaning);
    if (!query.debug) return { status: 200, body: envelope, format: 'json' };
    const filters = { category: query.category ?? null, supplier: query.supplier ?? null };
    return {
      status: 200,
      body: debugText('searchItems', query, filters, outcome.ranks, envelope),
      format: 'text',
    };
  }

  private searchContact({ params, behaviour }: EndpointRequest): Reply {
    const query = parseContactSearch(params, behaviour.requireQuery);
    const outcome = this.index.searchContacts(query);
    const rows = outcome.page.map(contactSearchRow);
    const envelope = searchEnvelope('contacts', query, rows, outcome.total, behaviour.countMeaning);
    if (!query.debug) return { status: 200, body: envelope, format: 'json' };
    const filters = { type: query.type ?? null };
    return {
      status: 200,
      body: debugText('searchContact', query, filters, outcome.ranks, envelope),
      format: 'text',
    };
  }
}

function find<T>(key: LookupKey, byCode: Map<string, T>, byId: Map<number, T>): T | undefined {
  return 'id' in key ? byId.get(key.id) : byCode.get(key.code);
}
