/**
 * App Home (`app_home_opened` → views.publish): the ERP's status, the budget left this
 * minute, the catalogue index, the user's recent lookups and a "Search stock" button.
 */
import type { HomeView, KnownBlock } from '@slack/types';
import { context, divider, fieldsSection, header, section } from './blocks.js';
import { type CatalogueSummary, catalogueLine } from './catalogue.js';
import { codeSpan } from './mrkdwn.js';
import { SEARCH } from './searchModal.js';

export interface HomeModel {
  sandbox: boolean;
  breaker: 'closed' | 'open' | 'half-open';
  budgets: ReadonlyArray<{ endpoint: string; left: number; limit: number }>;
  catalogue: CatalogueSummary;
  recent: readonly string[];
  now: Date;
}

const BREAKER_WORDS = {
  closed: ':large_green_circle: Ready',
  'half-open': ':large_yellow_circle: Recovering: trying the ERP again',
  open: ':red_circle: Paused: the ERP is failing, calls resume shortly',
} as const;

export function homeView(model: HomeModel): HomeView {
  const blocks: KnownBlock[] = [header('ERP lookups')];
  if (model.sandbox) {
    blocks.push(
      context(
        ':test_tube: *Sandbox data*: this app answers from its built-in sandbox ERP, not your ERP.',
      ),
    );
  }
  blocks.push(
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: SEARCH.homeButton,
          text: { type: 'plain_text', text: 'Search stock' },
          style: 'primary',
        },
      ],
    },
    divider(),
    section(`*ERP:* ${BREAKER_WORDS[model.breaker]}`),
  );
  if (model.budgets.length > 0) {
    blocks.push(
      fieldsSection(
        model.budgets.map((b) => [b.endpoint, `${b.left} of ${b.limit} left this minute`] as const),
      ),
    );
  }
  blocks.push(section(`*Catalogue index:* ${catalogueLine(model.catalogue)}`));
  blocks.push(divider());
  blocks.push(
    section(
      model.recent.length === 0
        ? '*Your recent lookups:* none yet. Try `/stock` with a code, or *Search stock*.'
        : `*Your recent lookups:* ${model.recent.map((code) => codeSpan(code)).join(', ')}`,
    ),
  );
  blocks.push(
    context('Use `/stock categories` for category ids, `/stock help` for everything else.'),
  );
  return { type: 'home', blocks };
}
