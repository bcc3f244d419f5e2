/*
 * A preview frame of the theme page (served transpiled as /theme/assets/preview.js): the store's widget as
 * shoppers get it, put in the state a designer wants to see. The typeahead is opened by typing into the input
 * (an input event, as a shopper's keystroke makes), the look popup by pressing a look's "View Look" button.
 */

const view = document.body.dataset.view;

/** Calls `find` every 100 ms until it returns an element (at most 15 s), then `act` on it. */
function when<T>(find: () => T | null | undefined, act: (found: T) => void): void {
  const started = Date.now();
  const tick = () => {
    const found = find();
    if (found) act(found);
    else if (Date.now() - started < 15_000) setTimeout(tick, 100);
  };
  tick();
}

if (view === "typeahead") {
  when(
    () => document.querySelector<HTMLInputElement>("input[aria-controls^='sfs-typeahead']"),
    (input) => {
      input.value = "shir";
      input.dispatchEvent(new Event("input", { bubbles: true }));
    },
  );
}

if (view === "look") {
  when(
    () => document.querySelector("sfs-complete-the-look")?.shadowRoot?.querySelector<HTMLButtonElement>("[part~='view-look']"),
    (button) => button.click(),
  );
}
