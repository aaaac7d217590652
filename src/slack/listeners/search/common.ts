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
    sandbox: deps.display?.sandbox ?? false,
    ...extra,
  });
}
