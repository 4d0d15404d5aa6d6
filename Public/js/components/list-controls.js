// The row above an episode list that chooses what it shows: filter chips (a radio group: one Tab
// stop, arrows move between them) and a sort menu (a native select). On a phone, where five chips
// and the menu would take three lines, the filter is a select too (the CSS shows one or the other,
// so only one is ever in the page's tab order and accessibility tree). The choice itself is kept
// by the view (core/episode-query.js); this only shows it and reports changes.

import { h } from '../core/dom.js';
import { pathIcon } from '../core/icons.js';
import { FILTERS, SORTS, cleanChoice } from '../core/episode-query.js';

const SORT_ICON = 'M3 18h6v-2H3v2zM3 6v2h18V6H3zm0 7h12v-2H3v2z';
let counter = 0;

/** `{el, set(choice)}`: the controls showing `choice` ({filter, sort}); `onChange(choice)` runs
 *  when the listener picks another filter or sort. `label` names the list ("Episodes"); `sorts`
 *  and `clean` replace the sorts offered and how a choice is checked (search adds "Best match"). */
export function listControls(choice, onChange, { label = 'episodes', sorts = SORTS, clean = cleanChoice } = {}) {
  const id = `list-controls-${++counter}`;
  let current = clean(choice);

  const radios = FILTERS.map((filter) => h('input', {
    type: 'radio', class: 'chip-input', name: `${id}-filter`, value: filter.value,
  }));
  const chips = h('fieldset', { class: 'filter-chips' },
    h('legend', { class: 'visually-hidden' }, `Show ${label}`),
    FILTERS.map((filter, index) => h('label', { class: 'chip', dataset: { filter: filter.value || 'all' } },
      radios[index], h('span', { class: 'chip-label' }, filter.label))));

  const filterSelect = h('select', { class: 'filter-select', 'aria-label': `Show ${label}` },
    FILTERS.map((filter) => h('option', { value: filter.value }, filter.label)));

  const select = h('select', { class: 'sort-select', id: `${id}-sort`, 'aria-label': `Sort ${label}` },
    sorts.map((sort) => h('option', { value: sort.value }, sort.label)));
  const sort = h('div', { class: 'sort-control' }, pathIcon('sort', SORT_ICON), select);

  const set = (next) => {
    current = clean(next);
    for (const radio of radios) radio.checked = radio.value === current.filter;
    filterSelect.value = current.filter;
    select.value = current.sort;
  };
  chips.addEventListener('change', (event) => {
    if (!event.target.matches('.chip-input')) return;
    current = { ...current, filter: event.target.value };
    filterSelect.value = current.filter;
    onChange({ ...current });
  });
  filterSelect.addEventListener('change', () => {
    current = { ...current, filter: filterSelect.value };
    for (const radio of radios) radio.checked = radio.value === current.filter;
    onChange({ ...current });
  });
  select.addEventListener('change', () => {
    current = { ...current, sort: select.value };
    onChange({ ...current });
  });
  set(current);
  return { el: h('div', { class: 'list-controls' }, chips, filterSelect, sort), set };
}
