/**
 * THE Block Kit readers of the tests (views, Slack listeners, end to end): the block walker,
 * buttons by label, all visible text. test/views/inspect.ts adds the views' own checks on top.
 */
export interface FoundButton {
  text: string;
  action_id: string;
  value: string | undefined;
  block_id: string | undefined;
  accessibility_label?: string;
  confirm?: { title: { text: string }; confirm?: { text: string } };
}

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null;

/** Visits every object in a block tree, depth first, with its parent. */
export function walk(
  value: unknown,
  visit: (node: Json, parent: Json | undefined) => void,
  parent?: Json,
) {
  if (Array.isArray(value)) {
    for (const child of value) walk(child, visit, parent);
  } else if (isObject(value)) {
    visit(value, parent);
    for (const child of Object.values(value)) walk(child, visit, value);
  }
}

/** Every button in the blocks, in order. */
export function buttonsOf(message: { blocks?: unknown }): FoundButton[] {
  const found: FoundButton[] = [];
  const blocks = Array.isArray(message.blocks) ? message.blocks.filter(isObject) : [];
  for (const block of blocks) {
    walk(block, (node) => {
      if (node.type === 'button' && isObject(node.text)) {
        found.push({
          text: String(node.text.text),
          action_id: String(node.action_id),
          value: typeof node.value === 'string' ? node.value : undefined,
          block_id: typeof block.block_id === 'string' ? block.block_id : undefined,
          ...(typeof node.accessibility_label === 'string'
            ? { accessibility_label: node.accessibility_label }
            : {}),
          ...(isObject(node.confirm)
            ? { confirm: node.confirm as NonNullable<FoundButton['confirm']> }
            : {}),
        });
      }
    });
  }
  return found;
}

/** The first button whose label contains `word`; throws with the labels present if none. */
export function buttonLabelled(message: { blocks?: unknown }, word: string): FoundButton {
  const buttons = buttonsOf(message);
  const button = buttons.find((b) => b.text.includes(word));
  if (!button) {
    throw new Error(`no button with "${word}" among: ${buttons.map((b) => b.text).join(', ')}`);
  }
  return button;
}

/** All text of the message: fallback text and every text object in the blocks. */
export function textOf(message: { text?: unknown; blocks?: unknown }): string {
  const parts: string[] = typeof message.text === 'string' ? [message.text] : [];
  walk(message.blocks, (node) => {
    if (typeof node.text === 'string') parts.push(node.text);
  });
  return parts.join('\n');
}
