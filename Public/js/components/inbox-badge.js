// The header's Inbox link: a count badge on its icon while the Inbox holds episodes ("99+" past
// 99), and the link's name says it ("Inbox, 3 new episodes").

import { inbox } from '../core/inbox.js';

/** Wires the header link `link` (a.header-inbox) to the Inbox store and starts the store. */
export function initInboxBadge(link) {
  const badge = link?.querySelector('.header-badge');
  if (link && badge) {
    inbox.changed((total) => {
      badge.hidden = !(total > 0);
      badge.textContent = total > 99 ? '99+' : String(total);
      if (total > 0) link.setAttribute('aria-label', `Inbox, ${total} new episode${total === 1 ? '' : 's'}`);
      else link.removeAttribute('aria-label');
      link.dataset.count = String(total);
    });
  }
  inbox.start();
}
