// The turn alert: when this seat's decision becomes due at a table, a short tone (WebAudio, nothing
// to download) and, while the page is hidden, a browser notification (once the browser allows it).
// Both are off while the header's checkbox is cleared; the choice is kept in localStorage.
const KEY = "fairtable-turn-alert";
let audio = null;

export function alertsOn() {
  return localStorage.getItem(KEY) !== "off";
}

// A change from not this seat's turn to its turn; a table's first event is no change (opening the page rings nothing).
export function turnCame(before, after) {
  return before !== undefined && !before.your_turn && Boolean(after.your_turn);
}

export function alertTurn(event) {
  if (!alertsOn()) return;
  tone();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification("fairtable: your turn", { body: `${event.game} · ${event.variant}`, tag: event.lobby_id });
  }
}

function tone() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = audio || new Context();
  audio.resume();
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  const now = audio.currentTime;
  oscillator.frequency.value = 880;
  gain.gain.setValueAtTime(0.2, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + 0.3);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(now);
  oscillator.stop(now + 0.3);
}

// The header's checkbox: shows and keeps the setting; turning it on (or the first click on the page
// with it on) asks the browser's permission to notify, which a browser grants only after a click.
export function alertSetting(checkbox) {
  const ask = () => {
    if (alertsOn() && "Notification" in window && Notification.permission === "default") Notification.requestPermission();
  };
  checkbox.checked = alertsOn();
  checkbox.onchange = () => {
    localStorage.setItem(KEY, checkbox.checked ? "on" : "off");
    ask();
  };
  document.addEventListener("click", ask, { once: true });
}
