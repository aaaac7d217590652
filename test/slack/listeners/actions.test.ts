/**
 * Every action id the views put on a button reaches exactly one Bolt listener, each behind the
 * response_url screen; ids no view emits reach none.
 */
import { describe, expect, it } from 'vitest';
import { ACTION, actionId } from '../../../src/views/actions.js';
import { HOME_RECENT_ACTION } from '../../../src/views/appHome.js';
import { FIND_CONTACT } from '../../../src/views/findContactModal.js';
import { SEARCH } from '../../../src/views/searchModal.js';
import { SHARED_REMOVE_ACTION } from '../../../src/views/sharedBy.js';
import { WATCH_ACTION } from '../../../src/views/watchButtons.js';
import { SET_WATCH_ACTION } from '../../../src/views/words.js';
import { answers, registeredActions } from '../../helpers/actionListeners.js';
import { listenerDeps } from '../../helpers/listenerDeps.js';
import { collectingLogger } from '../../helpers/logSink.js';

const { logger } = collectingLogger('warn', 'actions');
const registered = registeredActions(listenerDeps({} as never, logger));
const listenersFor = (id: string) => registered.filter((action) => answers(action, id));

/** The ids as the views write them: bare, numbered where a message repeats a button, with a watch id. */
const EMITTED = [
  ...Object.values(ACTION),
  actionId(ACTION.itemView, 100),
  actionId(ACTION.itemExpand, 3),
  actionId(ACTION.itemBomPage, 1),
  actionId(ACTION.itemBranchPage, 1),
  actionId(ACTION.itemPart, 10),
  actionId(ACTION.contactView, 4),
  actionId(ACTION.contactPeoplePage, 901),
  HOME_RECENT_ACTION,
  `${HOME_RECENT_ACTION}:2`,
  SEARCH.homeButton,
  SEARCH.categoryAction,
  SEARCH.itemAction,
  SEARCH.retryAction,
  FIND_CONTACT.homeButton,
  SHARED_REMOVE_ACTION,
  SET_WATCH_ACTION,
  `${WATCH_ACTION.remove}:w-1`,
  `${WATCH_ACTION.stop}:w-1`,
  `${WATCH_ACTION.snooze}:w-1:7`,
  WATCH_ACTION.removeAll,
  WATCH_ACTION.open,
  WATCH_ACTION.replace,
  WATCH_ACTION.keep,
];

describe('button listeners', () => {
  it.each(EMITTED)('%s reaches exactly one listener', (id) => {
    expect(listenersFor(id)).toHaveLength(1);
  });

  it('runs the response_url screen before every callback', () => {
    expect(registered.every((action) => action.middleware === 1)).toBe(true);
  });

  it.each([
    'stock_view:x',
    'stock_viewer',
    'xstock_view',
    `${WATCH_ACTION.removeAll}:w-1`,
    'watch_removed',
    SEARCH.shareAction,
    FIND_CONTACT.textAction,
  ])('%s reaches none', (id) => {
    expect(listenersFor(id)).toHaveLength(0);
  });
});
