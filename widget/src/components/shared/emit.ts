/**
 * Dispatches one of the widget's events from `el`: bubbling and composed, so it leaves the shadow roots and a
 * store can listen on `document`. Cancelable; returns false when a listener called preventDefault().
 */
export function emit<K extends keyof GlobalEventHandlersEventMap>(
  el: HTMLElement,
  name: K,
  detail: GlobalEventHandlersEventMap[K] extends CustomEvent<infer D> ? D : never,
): boolean {
  return el.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true, cancelable: true, detail }));
}
