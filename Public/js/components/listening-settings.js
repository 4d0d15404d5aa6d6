// Skip silence and leveling (issue 18): how much of a pause plays through fast, and whether
// every show comes out at the same loudness. The player's controls set the default
// (`settings {skipSilence, leveling}`); a podcast's Skips fold sets its own
// (`podcast.settings`, where "Default" goes back to the player's).

import { h } from '../core/dom.js';
import { socket } from '../core/socket.js';
import { Cmd } from '../core/commands.js';

export const SILENCE = [['off', 'Off'], ['mild', 'Mild'], ['medium', 'Medium'], ['strong', 'Strong']];
export const LEVELING = [['off', 'Off'], ['normalize', 'Even loudness'], ['boost', 'Voice boost']];

/** The name a choice is shown by ("Even loudness"). */
export function choiceName(choices, value) {
  return (choices.find(([key]) => key === value) ?? [value, value])[1];
}

/** A labelled select of `choices`; `onChange(value)` when the listener picks one; `show(value)`. */
export function choiceSelect(key, words, title, choices, onChange) {
  const select = h('select', { class: `speed-select ${key}-select`, 'aria-label': words },
    choices.map(([value, name]) => h('option', { value }, name)));
  select.addEventListener('change', () => onChange(select.value));
  const el = h('label', { class: `speed ${key}`, title }, h('span', { class: 'speed-label', 'aria-hidden': 'true' }, words), select);
  return {
    el,
    select,
    show(value) { if (value != null && select.value !== value) select.value = value; },
  };
}

/** The player's defaults; `update(settings, state)` shows the server's values and the loaded
 *  episode's measured gain. */
export function listeningSettings() {
  const silence = choiceSelect('skip-silence', 'Skip silence', 'Pauses play through fast (podcasts without their own setting)',
    SILENCE, (value) => socket.send(Cmd.settings, { skipSilence: value }));
  const leveling = choiceSelect('leveling', 'Loudness', 'Every show at the same loudness (podcasts without their own setting)',
    LEVELING, (value) => socket.send(Cmd.settings, { leveling: value }));
  // The fixed gain the loaded episode plays at (a download measured when it landed).
  const gain = h('span', { class: 'leveling-gain', title: 'Measured when it was downloaded (EBU R128)' });
  const el = h('div', { class: 'listening-settings' }, silence.el, h('span', { class: 'leveling-box' }, leveling.el, gain));
  const update = (settings, state) => {
    silence.show(settings?.skipSilence ?? 'off');
    leveling.show(settings?.leveling ?? 'off');
    const db = state?.levelGain;
    gain.hidden = typeof db !== 'number';
    gain.textContent = typeof db === 'number' ? `${db > 0 ? '+' : db < 0 ? '−' : ''}${Math.abs(db).toFixed(1)} dB` : '';
  };
  return { el, update };
}
