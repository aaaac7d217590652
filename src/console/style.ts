/**
 * Terminal styling for the console transport. Plain ANSI SGR codes rather than
 * `util.styleText`: from Node 22 that helper checks `process.stdout` itself and strips colour
 * when stdout is not a terminal, but we decide colour per output stream (and tests force it).
 */

export interface Styler {
  readonly color: boolean;
  bold(text: string): string;
  italic(text: string): string;
  strike(text: string): string;
  underline(text: string): string;
  dim(text: string): string;
  code(text: string): string;
  button(text: string, style?: string): string;
  label(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) =>
  text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`;

const ANSI = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  italic: sgr(3, 23),
  underline: sgr(4, 24),
  strike: sgr(9, 29),
  cyan: sgr(36, 39),
  green: sgr(32, 39),
  red: sgr(31, 39),
  magenta: sgr(35, 39),
};

const identity = (text: string) => text;

export function createStyler(color: boolean): Styler {
  if (!color) {
    return {
      color,
      bold: identity,
      italic: identity,
      strike: identity,
      underline: identity,
      dim: identity,
      code: identity,
      button: identity,
      label: identity,
    };
  }
  return {
    color,
    bold: ANSI.bold,
    italic: ANSI.italic,
    strike: ANSI.strike,
    underline: ANSI.underline,
    dim: ANSI.dim,
    code: ANSI.magenta,
    button: (text, style) =>
      style === 'primary'
        ? ANSI.green(text)
        : style === 'danger'
          ? ANSI.red(text)
          : ANSI.cyan(text),
    label: (text) => ANSI.dim(ANSI.cyan(text)),
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point
const ANSI_PATTERN = /\u001b\[[0-9;]*m/g;

/** Length as the terminal shows it: colour codes take no columns. */
export function visibleLength(text: string): number {
  return [...text.replace(ANSI_PATTERN, '')].length;
}

export function padVisible(text: string, width: number): string {
  const missing = width - visibleLength(text);
  return missing > 0 ? text + ' '.repeat(missing) : text;
}

/**
 * Removes terminal control characters from data we did not write ourselves (ERP text inside
 * blocks): an ESC sequence in a product description must not move the cursor or recolour
 * the user's terminal. Newlines and tabs stay.
 */
export function stripControls(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}
