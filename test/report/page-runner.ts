import { JSDOM, VirtualConsole, type DOMWindow } from 'jsdom';

// Runs a report page's own script in jsdom, as a browser would, with a stand-in 2D context that
// remembers the text and rectangles drawn on each canvas, so a test can check where they went.

/** What a canvas got: each `fillText` with its baseline, and each `rect`/`fillRect` (bars). */
export interface Drawn {
  readonly texts: { readonly text: string; readonly x: number; readonly y: number; readonly baseline: string }[];
  readonly rects: { readonly x: number; readonly y: number; readonly w: number; readonly h: number }[];
}

const drawings = new WeakMap<object, Drawn>();

/** What was drawn on `canvas` so far (nothing when it was never drawn on). */
export function drawnOn(canvas: object): Drawn {
  return drawings.get(canvas) ?? { texts: [], rects: [] };
}

/** A canvas 2D context that accepts every call: enough for Chart.js to build its charts in jsdom. */
function stubContext(canvas: object): unknown {
  const state: Record<string | symbol, unknown> = { canvas };
  const drawn = drawings.get(canvas) ?? { texts: [], rects: [] };
  drawings.set(canvas, drawn);
  return new Proxy(state, {
    get(target, key) {
      if (key in target) return target[key];
      if (key === 'fillText') return (text: string, x: number, y: number) => drawn.texts.push({ text, x, y, baseline: String(target['textBaseline'] ?? 'alphabetic') });
      if (key === 'rect' || key === 'fillRect') return (x: number, y: number, w: number, h: number) => drawn.rects.push({ x, y, w, h });
      if (key === 'measureText') return (text: string) => ({ width: text.length * 6, actualBoundingBoxAscent: 8, actualBoundingBoxDescent: 2 });
      if (key === 'getLineDash') return () => [];
      return () => undefined;
    },
    set(target, key, value) {
      target[key] = value;
      return true;
    },
  });
}

/**
 * `layoutWidth`: jsdom lays nothing out, so every element is 0 px wide and Chart.js draws nothing;
 * with it, each element reports that width and its style's height, and the charts draw.
 */
export function runPage(html: string, layoutWidth?: number): { window: DOMWindow; errors: string[]; listeners: Map<EventTarget, Set<string>> } {
  const errors: string[] = [];
  // Which events the page's script listens for on each element: a click handler with no key handler is mouse-only.
  const listeners = new Map<EventTarget, Set<string>>();
  const virtualConsole = new VirtualConsole();
  virtualConsole.on('error', (...args: unknown[]) => errors.push(args.map(String).join(' ')));
  virtualConsole.on('jsdomError', (e: Error) => errors.push(e.message));
  const dom = new JSDOM(html, {
    runScripts: 'dangerously',
    pretendToBeVisual: true,
    virtualConsole,
    beforeParse(window) {
      const listen = window.EventTarget.prototype.addEventListener;
      window.EventTarget.prototype.addEventListener = function addEventListener(this: EventTarget, type: string, ...rest: unknown[]) {
        const types = listeners.get(this) ?? new Set<string>();
        types.add(type);
        listeners.set(this, types);
        return Reflect.apply(listen, this, [type, ...rest]) as void;
      };
      window.HTMLCanvasElement.prototype.getContext = function getContext(this: HTMLCanvasElement) {
        return stubContext(this);
      } as unknown as typeof window.HTMLCanvasElement.prototype.getContext;
      if (layoutWidth !== undefined) {
        const heightOf = (element: HTMLElement): number => Number.parseFloat(element.style.height) || 300;
        Object.defineProperty(window.HTMLElement.prototype, 'clientWidth', { get: () => layoutWidth });
        Object.defineProperty(window.HTMLElement.prototype, 'clientHeight', {
          get(this: HTMLElement) {
            return heightOf(this);
          },
        });
        window.HTMLElement.prototype.getBoundingClientRect = function getBoundingClientRect(this: HTMLElement) {
          const height = heightOf(this);
          return { x: 0, y: 0, left: 0, top: 0, width: layoutWidth, height, right: layoutWidth, bottom: height, toJSON: () => ({}) };
        };
      }
      (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
        observe(): void {}
        unobserve(): void {}
        disconnect(): void {}
      };
    },
  });
  return { window: dom.window, errors, listeners };
}

