// "Podcast apps" on the host's Devices view: sync with AntennaPod, gPodder or Kasts on a phone
// (gpodder.net's API or Nextcloud's gpoddersync, served by Earshot itself). Off until turned on
// with a user name and a password chosen or made (shown this once); then the address and user
// name to type into the app, the devices that synced, Change password and Turn off.

import { h } from '../core/dom.js';
import { getJSON, putJSON, deleteJSON } from '../core/api.js';
import { ago } from '../core/format.js';
import { toast } from '../core/toast.js';
import { confirmDialog } from './confirm.js';

/** Mounts the section into `section`; returns a function that stops it. */
export function mountSyncSettings(section) {
  let status = null;
  let shownPassword = null; // a password just made: shown until the view is left
  let editing = false; // the Change password form is open

  async function refresh() {
    try {
      status = await getJSON('/api/sync');
      render();
    } catch (error) {
      toast(error.message, 'error');
    }
  }

  async function save(user, password) {
    try {
      status = await putJSON('/api/sync', { user, password: password || undefined });
      shownPassword = status.password ?? null;
      editing = false;
      render();
      toast(status.password ? 'Sync is on: note the password shown' : 'Sync is on');
    } catch (error) {
      toast(error.message, 'error');
    }
  }

  async function turnOff() {
    const sure = await confirmDialog({ title: 'Turn off sync?',
      text: 'Podcast apps can no longer sync with Earshot. Your subscriptions and positions stay as they are.', confirm: 'Turn off' });
    if (!sure) return;
    try {
      status = await deleteJSON('/api/sync');
      shownPassword = null;
      render();
    } catch (error) {
      toast(error.message, 'error');
    }
  }

  function accountForm({ withUser }) {
    const user = h('input', { class: 'sync-user', name: 'user', type: 'text', autocomplete: 'off', autocapitalize: 'none',
      spellcheck: 'false', maxlength: '64', required: true, value: status?.user ?? '', 'aria-label': 'Sync user name' });
    const password = h('input', { class: 'sync-password', name: 'password', type: 'password', autocomplete: 'new-password',
      maxlength: '256', placeholder: 'Leave empty to have one made', 'aria-label': 'Sync password' });
    const form = h('form', { class: 'sync-form', on: { submit: (event) => {
      event.preventDefault();
      save(withUser ? user.value.trim() : status.user, password.value);
    } } },
    ...(withUser ? [h('label', { class: 'sync-label' }, 'User name', user)] : []),
    h('label', { class: 'sync-label' }, withUser ? 'Password' : 'New password', password),
    h('div', { class: 'devices-actions' },
      h('button', { type: 'submit', class: 'button button-primary sync-save' }, withUser ? 'Turn on sync' : 'Change password'),
      ...(withUser ? [] : [h('button', { type: 'button', class: 'button sync-cancel', on: { click: () => { editing = false; render(); } } }, 'Cancel')])));
    return form;
  }

  function render() {
    if (!status) return;
    const lead = h('p', { class: 'sync-lead' },
      'Keep AntennaPod, gPodder or Kasts on your phone in step with Earshot: subscriptions and where you are in each episode, both ways.');
    const lanHint = status.lan ? null
      : h('p', { class: 'sync-hint' }, 'Earshot listens on this machine only: for a phone, start it with “earshot serve --lan”.');
    if (!status.enabled) {
      section.replaceChildren(...present(lead, lanHint, accountForm({ withUser: true })));
      return;
    }
    const addresses = h('ul', { class: 'sync-addresses' }, ...status.addresses.map((url) => h('li', {}, h('code', {}, url))));
    const steps = h('ol', { class: 'sync-steps' },
      h('li', {}, 'In AntennaPod: Settings → Synchronization → “gpodder.net” (or “Nextcloud”).'),
      h('li', {}, 'Server: one of the addresses below, typed with http:// and the port.'),
      h('li', {}, 'User name ', h('strong', { class: 'sync-user-name' }, status.user), ' and the sync password.'));
    const password = shownPassword
      ? h('p', { class: 'sync-made', role: 'status' }, 'Password (shown this once): ', h('code', { class: 'sync-made-password' }, shownPassword))
      : null;
    const devices = status.devices.length
      ? h('ul', { class: 'device-list sync-devices', 'aria-label': 'Devices that synced' },
        ...status.devices.map((device) => h('li', { class: 'device-row sync-device', dataset: { syncDevice: device.id } },
          h('div', { class: 'device-text' },
            h('p', { class: 'device-name' }, device.caption || device.id),
            h('p', { class: 'device-seen' }, `${device.type} · last synced ${ago(device.lastSync)}`)))))
      : h('p', { class: 'empty sync-none' }, 'No app has synced yet.');
    const actions = editing ? accountForm({ withUser: false })
      : h('div', { class: 'devices-actions' },
        h('button', { type: 'button', class: 'button sync-change', on: { click: () => { editing = true; render(); } } }, 'Change password'),
        h('button', { type: 'button', class: 'button sync-off', on: { click: turnOff } }, 'Turn off sync'));
    section.replaceChildren(...present(
      h('p', { class: 'sync-on' }, 'Sync is on for ', h('strong', {}, status.user), '.'),
      password, steps, addresses, lanHint, devices, actions));
  }

  refresh();
  return () => {};
}

function present(...nodes) {
  return nodes.filter((node) => node !== null && node !== undefined);
}
