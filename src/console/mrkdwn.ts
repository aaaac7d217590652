/**
 * Slack mrkdwn (and the standard Markdown of `markdown` blocks) turned into terminal text:
 * `*bold*`, `_italic_`, `~strike~` become styles (or plain words without colour), code stays
 * as typed, `<url|label>` becomes `label (url)`, mentions become `@U…`/`#C…`, dates become
 * local time, and `&lt;` `&gt;` `&amp;` are decoded for display only.
 */
// One file each, not the package index: the index loads all of date-fns (about 860 modules).
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { formatDistance } from 'date-fns/formatDistance';
import { isSameDay } from 'date-fns/isSameDay';
import { consoleHandle } from './identity.js';
import { type Styler, stripControls } from './style.js';

interface MrkdwnOptions {
  styler: Styler;
  /** "today", "ago" and friends in date tokens are relative to this. */
  now?: Date;
}

/** The three entities Slack requires in mrkdwn; decoded in one pass so `&amp;lt;` stays `&lt;`. */
function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|amp);/g, (_, name: string) =>
    name === 'lt' ? '<' : name === 'gt' ? '>' : '&',
  );
}

const EMOJI: Record<string, string> = {
  warning: '⚠️',
  zzz: '💤',
  small_red_triangle_down: '🔻',
  small_red_triangle: '🔺',
  question: '❓',
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  x: '❌',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  package: '📦',
  lock: '🔒',
  unlock: '🔓',
  mag: '🔍',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  information_source: 'ℹ️',
  arrows_counterclockwise: '🔄',
  red_circle: '🔴',
  large_green_circle: '🟢',
  large_yellow_circle: '🟡',
  truck: '🚚',
  factory: '🏭',
  office: '🏢',
  bust_in_silhouette: '👤',
  busts_in_silhouette: '👥',
  telephone_receiver: '📞',
  iphone: '📱',
  grey_question: '❔',
  arrow_down_small: '🔽',
  arrow_up_small: '🔼',
  email: '📧',
  eyes: '👀',
  memo: '📝',
  link: '🔗',
  moneybag: '💰',
  chart_with_upwards_trend: '📈',
  rotating_light: '🚨',
  test_tube: '🧪',
};

export function replaceEmoji(text: string): string {
  return text.replace(/:([a-z0-9_+-]+):/g, (whole, name: string) => EMOJI[name] ?? whole);
}

/** Splits out ``` fences: nothing inside them is formatted, and they keep their own lines. */
function splitFences(text: string): { fence: boolean; text: string }[] {
  const parts: { fence: boolean; text: string }[] = [];
  let last = 0;
  for (const match of text.matchAll(/```[\s\S]*?```/g)) {
    if (match.index > last) parts.push({ fence: false, text: text.slice(last, match.index) });
    parts.push({ fence: true, text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ fence: false, text: text.slice(last) });
  return parts;
}

const DATE_FORMATS: Record<string, string> = {
  date_num: 'yyyy-MM-dd',
  date: 'MMMM do, yyyy',
  date_short: 'MMM d, yyyy',
  date_long: 'EEEE, MMMM do, yyyy',
  time: 'HH:mm',
  time_secs: 'HH:mm:ss',
};

function relativeDay(date: Date, now: Date): string | undefined {
  if (isSameDay(date, now)) return 'today';
  if (isSameDay(date, addDays(now, -1))) return 'yesterday';
  if (isSameDay(date, addDays(now, 1))) return 'tomorrow';
  return undefined;
}

/** `<!date^1392734382^{date_short} at {time}|fallback>` in the reader's (here: local) time. */
export function formatSlackDate(seconds: number, template: string, now: Date): string {
  const date = new Date(seconds * 1000);
  return template.replace(/\{(\w+)\}/g, (whole, token: string) => {
    if (token === 'ago') return formatDistance(date, now, { addSuffix: true });
    const pretty = /^(date|date_short|date_long)_pretty$/.exec(token);
    if (pretty?.[1]) return relativeDay(date, now) ?? format(date, DATE_FORMATS[pretty[1]] ?? '');
    const pattern = DATE_FORMATS[token];
    return pattern ? format(date, pattern) : whole;
  });
}

/** One `<…>` token of Slack's mrkdwn, shown the way Slack shows it. */
function renderAngleToken(inner: string, options: MrkdwnOptions): string {
  const [target = '', ...labelParts] = inner.split('|');
  const label = labelParts.length > 0 ? decodeEntities(labelParts.join('|')) : undefined;
  if (target.startsWith('!date^')) {
    const [, seconds, template = '{date_short}'] = target.split('^');
    const unix = Number(seconds);
    if (!Number.isFinite(unix)) return label ?? inner;
    return formatSlackDate(unix, decodeEntities(template), options.now ?? new Date());
  }
  if (target.startsWith('@')) {
    return `@${label ?? consoleHandle(target.slice(1)) ?? target.slice(1)}`;
  }
  if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
  if (target.startsWith('!subteam^')) {
    const group = target.slice('!subteam^'.length);
    return label ?? `@${consoleHandle(group) ?? group}`;
  }
  if (target.startsWith('!')) return `@${label ?? target.slice(1)}`;
  const url = decodeEntities(target);
  return label && label !== url ? `${label} (${url})` : url;
}

// Slack only treats markers as formatting at word edges: `snake_case_name` stays as it is.
const edge = (marker: '*' | '_' | '~') => {
  const m = marker === '*' ? '\\*' : marker;
  return new RegExp(
    `(^|[^\\p{L}\\p{N}${m}])${m}(?=\\S)([^${m}\\n]*?[^\\s${m}])${m}(?![\\p{L}\\p{N}${m}])`,
    'gu',
  );
};
const BOLD = edge('*');
const ITALIC = edge('_');
const STRIKE = edge('~');

function styleMarkers(text: string, styler: Styler): string {
  return text
    .replace(BOLD, (_, before: string, inner: string) => before + styler.bold(inner))
    .replace(ITALIC, (_, before: string, inner: string) => before + styler.italic(inner))
    .replace(STRIKE, (_, before: string, inner: string) => before + styler.strike(inner));
}

const HOLE_OPEN = '\ue000';
const HOLE_CLOSE = '\ue001';

/**
 * Text outside fences. Code spans and `<…>` tokens are set aside first, so a URL's `_` never
 * turns into italics and `*`code`*` is bold code, as in Slack.
 */
function renderProse(text: string, options: MrkdwnOptions): string {
  const holes: string[] = [];
  const hole = (rendered: string) => {
    holes.push(rendered);
    return `${HOLE_OPEN}${holes.length - 1}${HOLE_CLOSE}`;
  };
  const withHoles = text
    .replace(/`[^`\n]+`/g, (code) => hole(options.styler.code(decodeEntities(code))))
    .replace(/<([^<>\n]+)>/g, (_, inner: string) => hole(renderAngleToken(inner, options)));
  const styled = decodeEntities(styleMarkers(replaceEmoji(withHoles), options.styler));
  return styled.replace(
    new RegExp(`${HOLE_OPEN}(\\d+)${HOLE_CLOSE}`, 'g'),
    (_, index: string) => holes[Number(index)] ?? '',
  );
}

/** A ``` fence: its content exactly as written (aligned tables of figures). */
function renderFence(text: string, styler: Styler): string {
  const body = decodeEntities(text.slice(3, -3)).replace(/^\n/, '').replace(/\n$/, '');
  return body
    .split('\n')
    .map((line) => styler.code(line))
    .join('\n');
}

export function renderMrkdwn(text: string, options: MrkdwnOptions): string {
  let output = '';
  let afterFence = false;
  for (const part of splitFences(stripControls(text))) {
    // Fences sit on lines of their own, as Slack draws them.
    const needsBreak = part.fence ? output !== '' && !output.endsWith('\n') : afterFence;
    if (needsBreak && !part.text.startsWith('\n')) output += '\n';
    output += part.fence ? renderFence(part.text, options.styler) : renderProse(part.text, options);
    afterFence = part.fence;
  }
  return output;
}

/** `plain_text` objects: no formatting, but Slack still turns `:emoji:` into pictures. */
export function renderPlain(text: string, emoji = true): string {
  const clean = stripControls(text);
  return emoji ? replaceEmoji(clean) : clean;
}

/**
 * The standard Markdown of `markdown` blocks (CommonMark-ish): headings, `**bold**`,
 * `*italic*`, `~~strike~~`, `[label](url)`. Code is kept as typed; nothing is entity-decoded.
 */
export function renderMarkdown(text: string, options: MrkdwnOptions): string {
  const { styler } = options;
  return splitFences(stripControls(text))
    .map((part) => {
      if (part.fence) return `${renderFence(part.text, styler)}\n`;
      const holes: string[] = [];
      return part.text
        .replace(/`[^`\n]+`/g, (code) => {
          holes.push(styler.code(code));
          return `${HOLE_OPEN}${holes.length - 1}${HOLE_CLOSE}`;
        })
        .replace(/^#{1,6}\s+(.+)$/gm, (_, heading: string) =>
          styler.bold(styler.underline(heading)),
        )
        .replace(
          /\[([^\]\n]+)\]\(([^)\s]+)\)/g,
          (_, label: string, url: string) => `${label} (${url})`,
        )
        .replace(/\*\*([^*\n]+)\*\*|__([^_\n]+)__/g, (_, a?: string, b?: string) =>
          styler.bold(a ?? b ?? ''),
        )
        .replace(edge('*'), (_, before: string, inner: string) => before + styler.italic(inner))
        .replace(edge('_'), (_, before: string, inner: string) => before + styler.italic(inner))
        .replace(/~~([^~\n]+)~~/g, (_, inner: string) => styler.strike(inner))
        .replace(
          new RegExp(`${HOLE_OPEN}(\\d+)${HOLE_CLOSE}`, 'g'),
          (_, index: string) => holes[Number(index)] ?? '',
        );
    })
    .join('')
    .replace(/\n+$/, '');
}
