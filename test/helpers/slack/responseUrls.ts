/**
 * The fake's response_urls: what the app POSTs to them, and Slack's limits on them.
 * A response_url is unique per payload and usable up to 5 times within 30 minutes
 * (docs.slack.dev/interactivity/handling-user-interaction); after that Slack answers 404,
 * which Bolt 5's respond() turns into a RespondError.
 */
import { randomUUID } from 'node:crypto';
import { capture } from '../capture.js';

export const RESPONSE_PATH = '/response/';

/** Slack accepts this many POSTs per response_url. */
export const RESPONSE_URL_MAX_USES = 5;

/** One accepted POST to a response_url. */
export interface CapturedResponse {
  /** The response_url's id (the last path segment). */
  id: string;
  /** The full response_url it was POSTed to. */
  url: string;
  body: Record<string, unknown>;
  /** `Date.now()` when it arrived. */
  at: number;
}

export class ResponseUrls {
  private readonly captured: CapturedResponse[] = [];
  private readonly expired = new Set<string>();

  constructor(private readonly origin: () => string) {}

  /** A fresh response_url on the fake. */
  mint(): string {
    return this.urlFor(randomUUID());
  }

  urlFor(id: string): string {
    return `${this.origin()}${RESPONSE_PATH}${id}`;
  }

  /** Accepts any id under `/response/`, so tests may also build their own urls. */
  static idOf(urlOrPath: string): string {
    const path = new URL(urlOrPath, 'http://127.0.0.1').pathname;
    return path.startsWith(RESPONSE_PATH) ? path.slice(RESPONSE_PATH.length) : path;
  }

  /** Records a POST; false when the url is expired or used up (Slack's 404). */
  accept(id: string, body: Record<string, unknown>): boolean {
    if (this.expired.has(id) || this.list(id).length >= RESPONSE_URL_MAX_USES) return false;
    this.captured.push({ id, url: this.urlFor(id), body, at: Date.now() });
    capture('message', 'response_url', JSON.stringify(body));
    return true;
  }

  expire(id: string): void {
    this.expired.add(id);
  }

  list(id?: string): CapturedResponse[] {
    return this.captured.filter((r) => id === undefined || r.id === id);
  }
}
