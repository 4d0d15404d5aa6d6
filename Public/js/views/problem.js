// A page that says what went wrong and leads back to the library.

import { h } from '../core/dom.js';

/** Heading, explanation and a link home. */
export function problem(title, detail) {
  return [
    h('h1', { class: 'view-title', tabindex: '-1' }, title),
    detail ? h('p', { class: 'problem-detail' }, detail) : null,
    h('p', {}, h('a', { class: 'button', href: '/' }, 'Back to the library')),
  ].filter(Boolean);
}

/** The view for paths no route matches. */
export const notFoundView = {
  mount(root) {
    root.replaceChildren(...problem('Page not found', 'There is nothing at this address.'));
    return { title: 'Not found' };
  },
};
