/**
 * Slack's ids by shape: every id read from a payload passes one of these before it is used
 * (in a post, a mention, an API call, a cache key, an audit line). Slack's ids are a letter
 * naming the kind and upper-case letters and digits; a value with anything else in it
 * (`U1> <!channel>`, a path, a space) is not an id, whatever the signature says.
 */
import { z } from 'zod';
import { MEMBER_ID } from '../ids/member.js';

const shaped = (kinds: string, what: string) =>
  z.string().regex(new RegExp(`^[${kinds}][A-Z0-9]{1,30}$`), { error: `not a Slack ${what} id` });

/** A person: `U…`, or `W…` in an Enterprise org; the shape every layer checks (ids/member.ts). */
export const UserId = z.string().regex(MEMBER_ID, { error: 'not a Slack user id' });
/** A conversation: public `C…`, private `G…` (older ones), a direct message `D…`. */
export const ChannelId = shaped('CGD', 'conversation');
/** A channel or private channel, never a direct message. */
export const SharedChannelId = shaped('CG', 'channel');
/** A workspace: `T…`. */
export const TeamId = shaped('T', 'workspace');
/** A modal: `V…`. */
export const ViewId = shaped('V', 'view');
/** A message timestamp: seconds, a dot, six digits. */
export const MessageTs = z
  .string()
  .regex(/^\d{1,12}\.\d{6}$/, { error: 'not a message timestamp' });

/** A person in a payload: their id and their own workspace, both by shape. */
export const PayloadUser = z.object({ id: UserId, team_id: TeamId.optional() });
