import { JSDOM, VirtualConsole, type DOMWindow } from 'jsdom';

// Runs a report page's own script in jsdom, as a browser would, with a stand-in 2D context.

/** A canvas 2D context that accepts every call: enough for Chart.js to build its charts in jsdom. */
function stubContext(canvas: unknown): unknown {
  const state: Record<string | symbol, unknown> = { canvas };
  return new Proxy(state, {
    get(target, key) {
      if (key in target) return target[key];
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

export function runPage(html: string): { window: DOMWindow; errors: string[] } {
  const errors: string[] = [];
  const virtualConsole = new VirtualConsole();
  virtualConsole.on('error', (...args: unknown[]) => errors.push(args.map(String).join(' ')));
  virtualConsole.on('jsdomError', (e: Error) => errors.push(e.message));
  const dom = new JSDOM(html, {
    runScripts: 'dangerously',
    pretendToBeVisual: true,
    virtualConsole,
    beforeParse(window) {
      window.HTMLCanvasElement.prototype.getContext = function getContext(this: HTMLCanvasElement) {
        return stubContext(this);
      } as unknown as typeof window.HTMLCanvasElement.prototype.getContext;
      (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
        observe(): void {}
        unobserve(): void {}
        disconnect(): void {}
      };
    },
  });
  return { window: dom.window, errors };
}

