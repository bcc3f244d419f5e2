/** Registers a tag once: a second copy of the head script on the page leaves the first one's elements alone. */
export function define(tag: string, constructor: CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, constructor);
}
