/**
 * What `/stock` and `/contact` say about text they could not read as asked, and about how they
 * read it (cut, fewer words). The parser (src/slack/parser.ts) passes what went wrong and the
 * pieces (the key, what was typed, already quoted, a working example); the words are here.
 * Plain text: the views that show it escape it.
 */
export type CommandProblem =
  | { kind: 'hash_without_id'; command: string }
  | { kind: 'given_twice'; key: string; first: string; second: string; example: string }
  | { kind: 'id_not_alone'; command: string; id: number; sampleWord: string }
  | { kind: 'not_whole_number'; typed: string; what: string; example: string }
  | { kind: 'bad_contact_type'; typed: string; example: string }
  | { kind: 'markup_only'; command: string; sampleCode: string }
  | { kind: 'quantity_twice'; first: string; second: string; code: string }
  | { kind: 'quantity_not_positive'; typed: string; code: string }
  | { kind: 'watch_threshold'; code: string; direction: 'below' | 'above' }
  | { kind: 'watch_branch_missing'; code: string }
  | { kind: 'unwatch_code_missing' }
  | {
      kind: 'notify_refused';
      problem: 'broadcast' | 'not_mention' | 'empty' | 'too_many';
      typed: string;
    }
  | { kind: 'digest_usage'; problem: 'usage' | 'time' | 'zone'; typed: string };

export type CommandNotice =
  | { kind: 'text_cut'; maxLength: number }
  | { kind: 'words_limited'; maxWords: number }
  | { kind: 'words_cut'; maxWordLength: number };

export function commandProblemText(problem: CommandProblem): string {
  switch (problem.kind) {
    case 'hash_without_id':
      return `"#" needs an id number after it, for example ${problem.command} #123.`;
    case 'given_twice':
      return `${problem.key} is given twice (${problem.first} and ${problem.second}): keep one, for example ${problem.example}.`;
    case 'id_not_alone':
      return `An id lookup takes nothing else: use ${problem.command} id:${problem.id} on its own, or leave the id out to search, for example ${problem.command} ${problem.sampleWord}.`;
    case 'not_whole_number':
      return `${problem.typed} is not valid: ${problem.what} is a whole number (0 or more), for example ${problem.example}.`;
    case 'bad_contact_type':
      return `${problem.typed} is not valid: type is client (or customer) or supplier, for example ${problem.example}.`;
    case 'markup_only':
      return `Mentions, channels and e-mail links cannot be looked up: type a code or some words, for example ${problem.command} ${problem.sampleCode}.`;
    case 'quantity_twice':
      return `Two quantities (${problem.first} and ${problem.second}): ask for one, for example /stock ${problem.code} 50.`;
    case 'quantity_not_positive':
      return `${problem.typed} is not a quantity anyone can promise: ask for 1 or more, for example /stock ${problem.code} 50.`;
    case 'watch_threshold':
      return `A watch needs a whole number after "${problem.direction}", for example /stock watch ${problem.code} ${problem.direction} 20.`;
    case 'watch_branch_missing':
      return `"at" needs a branch name after it, for example /stock watch ${problem.code} below 20 at perth.`;
    case 'unwatch_code_missing':
      return 'Say which watch to remove, for example /stock unwatch WIDGET-9 (see /stock watches).';
    case 'notify_refused':
      return notifyProblemText(problem.problem, problem.typed);
    case 'digest_usage':
      return problem.problem === 'time'
        ? `"${problem.typed}" is not a time of day: use HH:MM, for example /stock digest on 08:00.`
        : problem.problem === 'zone'
          ? `"${problem.typed}" is not a time zone I know: use a name such as Australia/Perth or Europe/London, for example /stock digest on 08:00 Australia/Perth.`
          : 'The digest is /stock digest on [HH:MM [zone]] or /stock digest off, for example /stock digest on 08:00 Australia/Perth.';
  }
}

function notifyProblemText(
  problem: 'broadcast' | 'not_mention' | 'empty' | 'too_many',
  typed: string,
): string {
  switch (problem) {
    case 'broadcast':
      return 'An alert never mentions the whole channel: after notify, name people or a user group (pick them from the @ menu), for example /stock watch WIDGET-9 below 20 notify @purchasing.';
    case 'not_mention':
      return `"${typed}" is not a person or a user group: after notify, pick each from Slack's @ menu so it turns into a mention, for example /stock watch WIDGET-9 below 20 notify @purchasing.`;
    case 'empty':
      return 'notify needs people or a user group after it, for example /stock watch WIDGET-9 below 20 notify @purchasing.';
    case 'too_many':
      return 'An alert mentions at most 10 people or groups: use a user group for more.';
  }
}

export function commandNoticeText(notice: CommandNotice): string {
  switch (notice.kind) {
    case 'text_cut':
      return `Your text was cut to ${notice.maxLength} characters.`;
    case 'words_limited':
      return `Only the first ${notice.maxWords} words were used.`;
    case 'words_cut':
      return `Words longer than ${notice.maxWordLength} characters were cut to ${notice.maxWordLength}.`;
  }
}
