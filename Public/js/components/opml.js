// OPML import and export, under the add-feed form. Import: a file picker; the file's text is
// POSTed to /api/opml and the result told in words ("Added 5, 2 already subscribed, 1 failed:"
// and each failure with its reason). Export: a plain download link to /api/opml.

import { h } from '../core/dom.js';
import { icon } from '../core/icons.js';
import { postText } from '../core/api.js';
import { library } from '../core/library.js';
import { plural } from '../core/format.js';

const MAX_BYTES = 1024 * 1024; // the server refuses larger request bodies
const ACCEPT = '.opml,.xml,text/x-opml,text/xml,application/xml';

/** The import button (with its hidden file field), the export link and the result line. */
export function buildOpml() {
  return h('div', { class: 'opml' },
    h('div', { class: 'opml-row' },
      h('span', { class: 'opml-label' }, 'Or use a list from another app:'),
      h('input', { type: 'file', id: 'opml-file', class: 'opml-file', accept: ACCEPT, hidden: true }),
      h('button', { type: 'button', class: 'button button-small opml-import' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }), icon('upload'), h('span', { class: 'button-label' }, 'Import OPML')),
      h('a', { class: 'button button-small opml-export', href: '/api/opml', download: 'earshot-subscriptions.opml' },
        icon('download'), h('span', { class: 'button-label' }, 'Export OPML'))),
    h('div', { class: 'opml-result', role: 'status' }));
}

/** Wires the import under `root` (built above or server-rendered). */
export function wireOpml(root) {
  const input = root.querySelector('.opml-file');
  const button = root.querySelector('.opml-import');
  const label = button.querySelector('.button-label');
  const result = root.querySelector('.opml-result');

  const say = (kind, ...content) => {
    result.className = `opml-result${kind ? ` is-${kind}` : ''}`;
    result.replaceChildren(...content);
  };

  button.addEventListener('click', () => {
    if (button.getAttribute('aria-busy') !== 'true') input.click();
  });
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    input.value = ''; // picking the same file again must fire `change` again
    if (!file) return;
    if (file.size > MAX_BYTES) {
      say('error', h('p', {}, `“${file.name}” is too large for a subscription list (over 1 MB).`));
      return;
    }
    button.setAttribute('aria-busy', 'true');
    label.textContent = 'Importing…';
    say('progress', h('p', {}, `Importing “${file.name}”: fetching each feed…`));
    try {
      const text = await file.text();
      const answer = await postText('/api/opml', text, 'text/x-opml; charset=utf-8');
      say(...describe(answer));
      library.load().catch(() => {});
    } catch (error) {
      say('error', h('p', {}, `Could not import “${file.name}”: ${error.message}`));
    } finally {
      button.removeAttribute('aria-busy');
      label.textContent = 'Import OPML';
    }
  });
}

/** [kind, ...nodes] for an import result {found, added: [Podcast], existing, failed: [{url, error}]}. */
function describe(answer) {
  const added = Array.isArray(answer?.added) ? answer.added.length : 0;
  const existing = Number(answer?.existing) || 0;
  const failed = Array.isArray(answer?.failed) ? answer.failed : [];
  if (added === 0 && existing === 0 && failed.length === 0) {
    return ['error', h('p', {}, 'No podcast feeds in this file.')];
  }
  const parts = [`Added ${added}`];
  if (existing) parts.push(`${existing} already subscribed`);
  if (failed.length) parts.push(`${failed.length} failed`);
  const summary = h('p', { class: 'opml-summary' }, parts.join(', ') + (failed.length ? ':' : '.'));
  if (!failed.length) return ['success', summary];
  const list = h('ul', { class: 'opml-failures', 'aria-label': `${plural(failed.length, 'feed')} that failed` },
    failed.map((f) => h('li', {},
      h('span', { class: 'opml-failed-url' }, String(f?.url ?? '')), ': ', String(f?.error ?? 'failed'))));
  return [added ? 'partial' : 'error', summary, list];
}
