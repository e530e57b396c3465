import { readFileSync } from 'node:fs';
import * as path from 'node:path';

// The text of dist/report-view.js, for pages that inline it. scripts/build.mjs builds that file
// first and defines this constant in the CLI bundle, so `herald audit --format html` needs no file
// beside it; compiled by tsc (tests), the constant is absent and the built file is read instead.
declare const __HERALD_REPORT_VIEW__: string | undefined;

export function reportViewScript(): string {
  if (typeof __HERALD_REPORT_VIEW__ === 'string') return __HERALD_REPORT_VIEW__;
  const candidates = [
    path.join(__dirname, 'report-view.js'), // another bundle in dist/
    path.join(__dirname, '..', '..', '..', '..', '..', 'dist', 'report-view.js'), // out/server/src/render/report-page/
  ];
  for (const file of candidates) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      // try the next place
    }
  }
  throw new Error('dist/report-view.js is missing: run `npm run build` first');
}
