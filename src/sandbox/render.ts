/**
 * What goes on the wire: search rows and envelopes, XML, error bodies and debug output.
 *
 * Choices where the spec says "not shown":
 * - Error bodies are JSON, whatever `Xmlresponse` says:
 *   `{ "status": 404, "error": "Not Found", "message": "Item not found" }`.
 * - XML is "available" for getItem and getContact only; searches answer JSON either way.
 *   Root elements `<Item>` and `<Contact>`; arrays become sections of repeated elements:
 *   `<BOM><Component>`, `<Kits><Kit>`, `<Branches><Branch>`, `<supplierCodes><supplierCode>`,
 *   `<Addressbook><Person>`; a null becomes an empty element.
 * - `debug` answers `text/plain`: `key: value` lines describing the search (keywords, filters,
 *   paging, matches per rank), then `result:` and the normal envelope as one unformatted line.
 */
import { STATUS_CODES } from 'node:http';
import { XMLBuilder } from 'fast-xml-parser';
import type { SearchBase } from './params.js';
import type { ContactRecord, ItemRecord, SandboxContact, SandboxItem } from './types.js';

export type CountMeaning = 'total' | 'page';

export function itemSearchRow({ record, price }: SandboxItem) {
  return {
    id: record.id,
    code: record.code,
    description: record.description,
    category_name: record.category,
    price,
    supplier_name: record.primarysupplier,
    status_label: record.status_label,
    soh: record.soh,
    allocated: record.allocated,
    onorder: record.onorder,
    available: record.available,
    has_bom: record.has_bom,
    has_kit: record.has_kit,
  };
}

export function contactSearchRow({ record }: SandboxContact) {
  return {
    clientid: record.clientid,
    code: record.code,
    company: record.company,
    status: record.status,
    status_label: record.status_label,
    account_type: record.account_type,
    address4: record.address4,
    state: record.state,
    telephone: record.telephone,
    email: record.email,
    salesperson: record.salesperson,
    addressbook_count: record.addressbook.length,
  };
}

export function searchEnvelope<Row>(
  key: 'items' | 'contacts',
  query: SearchBase,
  rows: Row[],
  total: number,
  countMeaning: CountMeaning,
): Record<string, unknown> {
  return {
    query: query.query,
    count: countMeaning === 'total' ? total : rows.length,
    limit: query.limit,
    offset: query.offset,
    [key]: rows,
  };
}

export function errorBody(status: number, message: string): Record<string, unknown> {
  return { status, error: STATUS_CODES[status] ?? 'Error', message };
}

const xmlBuilder = new XMLBuilder({
  format: false,
  suppressEmptyNode: true,
  ignoreAttributes: false,
});
const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

export function itemXml(item: ItemRecord): string {
  const { bom, kits, branches, supplierCodes, ...fields } = item;
  return (
    XML_DECLARATION +
    xmlBuilder.build({
      Item: {
        ...fields,
        supplierCodes: { supplierCode: supplierCodes },
        BOM: { Component: bom },
        Kits: { Kit: kits },
        Branches: { Branch: branches },
      },
    })
  );
}

export function contactXml(contact: ContactRecord): string {
  const { addressbook, ...fields } = contact;
  return (
    XML_DECLARATION +
    xmlBuilder.build({ Contact: { ...fields, Addressbook: { Person: addressbook } } })
  );
}

export function debugText(
  endpoint: string,
  query: SearchBase,
  filters: Record<string, unknown>,
  ranks: number[],
  envelope: unknown,
): string {
  return [
    `DEBUG ${endpoint}`,
    `query: ${JSON.stringify(query.query)}`,
    `keywords: ${JSON.stringify(query.keywords)}`,
    `filters: ${JSON.stringify(filters)}`,
    `limit: ${query.limit} offset: ${query.offset}`,
    `matches_by_rank: ${ranks.join(',')}`,
    `matched: ${ranks.reduce((sum, n) => sum + n, 0)}`,
    `result: ${JSON.stringify(envelope)}`,
    '',
  ].join('\n');
}
