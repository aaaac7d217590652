/**
 * What the search modal's listeners share: the payload fields they read (validated), and
 * the modal built from the catalogue's current categories.
 */
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import type { SlackMessage } from '../../../views/message.js';
import { type SearchMetadata, searchModal } from '../../../views/searchModal.js';
import type { ListenerDeps } from '../../deps.js';

export const ViewPayload = z.object({
  id: z.string().min(1),
  hash: z.string().optional(),
  private_metadata: z.string().optional(),
});

export const UserPayload = z.object({ id: z.string().min(1), team_id: z.string().optional() });

export function modalFor(
  deps: ListenerDeps,
  metadata: SearchMetadata,
  extra: { card?: SlackMessage; notice?: string } = {},
): ModalView {
  return searchModal({
    categories: deps.catalogue?.categories() ?? [],
    metadata,
    sandbox: deps.erpStatus?.().sandbox ?? false,
    ...extra,
  });
}

/** The Slack error code of a failed Web API call (`not_in_channel`, …), if any. */
export function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}
