// jsdom has no layout: give elements a viewport so the virtualisers render rows. A scroll
// container's scrollHeight is its first child's height (the virtual spacer).
export const viewportHeight = 400;

export function installLayout(): void {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => viewportHeight });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1200 });
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      const child = this.firstElementChild;
      const height = child instanceof HTMLElement ? Number.parseFloat(child.style.height) : Number.NaN;
      return Number.isNaN(height) ? viewportHeight : Math.max(height, viewportHeight);
    },
  });
}
