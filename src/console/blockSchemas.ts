/**
 * Just enough of Block Kit's shapes to render a message in a terminal. Blocks come from our
 * own views, but the console must never crash on a block it does not know or on one that is
 * malformed: anything that does not parse is shown as a placeholder instead.
 */
import { z } from 'zod';

export const TextObject = z.looseObject({
  type: z.enum(['plain_text', 'mrkdwn']),
  text: z.string(),
  emoji: z.boolean().optional(),
  verbatim: z.boolean().optional(),
});
export type TextObject = z.infer<typeof TextObject>;

export const ButtonElement = z.looseObject({
  type: z.literal('button'),
  text: TextObject,
  action_id: z.string().optional(),
  value: z.string().optional(),
  url: z.string().optional(),
  style: z.string().optional(),
});
export type ButtonElement = z.infer<typeof ButtonElement>;

export const ImageElement = z.looseObject({
  type: z.literal('image'),
  alt_text: z.string().optional(),
});

/** Any element: selects, overflow menus and date pickers are shown but cannot be pressed. */
export const AnyElement = z.looseObject({ type: z.string() });
export type AnyElement = z.infer<typeof AnyElement>;

const RichTextStyle = z
  .looseObject({
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    strike: z.boolean().optional(),
    code: z.boolean().optional(),
    underline: z.boolean().optional(),
  })
  .optional();

/** Inline rich text (text, link, mention, emoji, date…); unknown kinds keep their fallback. */
export const RichTextInline = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  url: z.string().optional(),
  user_id: z.string().optional(),
  usergroup_id: z.string().optional(),
  channel_id: z.string().optional(),
  team_id: z.string().optional(),
  name: z.string().optional(),
  unicode: z.string().optional(),
  range: z.string().optional(),
  value: z.string().optional(),
  timestamp: z.number().optional(),
  format: z.string().optional(),
  fallback: z.string().optional(),
  style: RichTextStyle,
});
export type RichTextInline = z.infer<typeof RichTextInline>;

const RichTextSection = z.looseObject({
  type: z.literal('rich_text_section'),
  elements: z.array(RichTextInline),
});

export const RichTextPart = z.discriminatedUnion('type', [
  RichTextSection,
  z.looseObject({
    type: z.literal('rich_text_list'),
    style: z.enum(['bullet', 'ordered']),
    indent: z.number().int().nonnegative().optional(),
    offset: z.number().int().nonnegative().optional(),
    elements: z.array(RichTextSection),
  }),
  z.looseObject({ type: z.literal('rich_text_preformatted'), elements: z.array(RichTextInline) }),
  z.looseObject({ type: z.literal('rich_text_quote'), elements: z.array(RichTextInline) }),
]);
export type RichTextPart = z.infer<typeof RichTextPart>;

const RichTextBlock = z.looseObject({
  type: z.literal('rich_text'),
  elements: z.array(RichTextPart),
});

const TableCell = z.union([
  z.looseObject({ type: z.literal('raw_text'), text: z.string() }),
  z.looseObject({ type: z.literal('raw_number'), value: z.number(), text: z.string().optional() }),
  RichTextBlock,
]);
export type TableCell = z.infer<typeof TableCell>;

const blockId = z.string().optional();

export const Block = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('header'), block_id: blockId, text: TextObject }),
  z.looseObject({
    type: z.literal('section'),
    block_id: blockId,
    text: TextObject.optional(),
    fields: z.array(TextObject).optional(),
    accessory: AnyElement.optional(),
  }),
  z.looseObject({
    type: z.literal('context'),
    block_id: blockId,
    elements: z.array(AnyElement),
  }),
  z.looseObject({ type: z.literal('divider'), block_id: blockId }),
  z.looseObject({ type: z.literal('actions'), block_id: blockId, elements: z.array(AnyElement) }),
  RichTextBlock.extend({ block_id: blockId }),
  z.looseObject({
    type: z.literal('table'),
    block_id: blockId,
    rows: z.array(z.array(TableCell)),
    column_settings: z
      .array(z.looseObject({ align: z.enum(['left', 'center', 'right']).optional() }).nullable())
      .optional(),
  }),
  z.looseObject({
    type: z.literal('image'),
    block_id: blockId,
    alt_text: z.string().optional(),
    title: TextObject.optional(),
    image_url: z.string().optional(),
  }),
  z.looseObject({ type: z.literal('markdown'), block_id: blockId, text: z.string() }),
]);
export type Block = z.infer<typeof Block>;
