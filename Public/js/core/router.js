// History API routing: same-origin links are intercepted, back/forward re-render,
// and each view is mounted into the one view container (the mini-player lives
// outside it, so it survives every navigation).

let routes = [];
let notFound = null;
let root = null;
let active = null; // { view, name }
let renderCount = 0;

/** The router. A route is `{ name, pattern: RegExp, view }`; a view is
 *  `{ mount(root, params) → { title?, destroy?() } | Promise<…> }`. */
export const router = {
  /** Starts routing into `container` and renders the current URL; `fallback` is the view
   *  for paths no route matches. */
  start(container, table, fallback) {
    root = container;
    routes = table;
    notFound = { name: 'not-found', view: fallback };
    history.scrollRestoration = 'manual';
    document.addEventListener('click', interceptLinks);
    window.addEventListener('popstate', (event) => render(event.state?.scroll ?? 0));
    if (!history.state) history.replaceState({ depth: 0 }, '');
    return render(0);
  },

  /** Goes to `path` (pushes a history entry unless `replace`). */
  navigate(path, { replace = false } = {}) {
    const url = new URL(path, location.href);
    if (url.pathname === location.pathname && url.search === location.search && !replace) return render(window.scrollY);
    // Remember where we were, so coming back lands on the same row.
    history.replaceState({ ...history.state, scroll: window.scrollY }, '');
    const depth = (history.state?.depth ?? 0) + (replace ? 0 : 1);
    const state = { depth, scroll: 0 };
    if (replace) history.replaceState(state, '', url);
    else history.pushState(state, '', url);
    return render(0);
  },

  /** Goes back when there is an in-app page to go back to; else to `fallback`. */
  back(fallback = '/') {
    if ((history.state?.depth ?? 0) > 0) history.back();
    else this.navigate(fallback, { replace: true });
  },

  /** The name of the route on screen ('library', 'podcast', …). */
  get current() { return active?.name ?? null; },
};

function match(pathname) {
  for (const route of routes) {
    const found = route.pattern.exec(pathname);
    if (found) return { route, params: found.slice(1) };
  }
  return null;
}

async function render(scroll) {
  const token = ++renderCount;
  const { route, params } = match(location.pathname) ?? { route: notFound, params: [] };
  active?.controller?.destroy?.();
  active = { name: route.name, controller: null };
  document.body.dataset.view = route.name;
  const controller = await route.view.mount(root, params, () => token === renderCount);
  if (token !== renderCount) { controller?.destroy?.(); return; }
  active.controller = controller;
  delete root.dataset.ssr; // the server-rendered first paint is gone or adopted by now
  document.body.dataset.ready = 'true';
  document.title = controller?.title ? `${controller.title} · Earshot` : 'Earshot';
  window.scrollTo(0, scroll);
  // Announce the new page to screen readers without scrolling.
  if (renderCount > 1) {
    [...root.querySelectorAll('h1')].find((heading) => heading.offsetParent !== null)?.focus({ preventScroll: true });
  }
}

function interceptLinks(event) {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target.closest?.('a[href]');
  if (!link || link.target || link.hasAttribute('download')) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !match(url.pathname)) return;
  if (url.hash && url.pathname === location.pathname) return; // in-page anchors (skip link)
  event.preventDefault();
  router.navigate(url.pathname + url.search);
}
