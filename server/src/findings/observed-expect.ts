import type { AuditReport } from '../report/schema.js';
import type { ComparisonOp, ExpectMetricItem, ExpectMinimalItem } from '../syntax/ast.js';

// What a failed `expect` line would say if it were written to hold on the figures just observed:
// the data its quick fix ("update this expect to the observed value") writes. A rate rounds up to
// two decimals of a percent (down for a lower bound), a margin to five decimals, so the line holds.

export interface ObservedExpect {
  /** The figure as observed: `14.89%`, `+0.41375`, `{L}`. */
  readonly observed: string;
  /** The whole line, rewritten: `expect asr(R0, launder, oracle_worst) <= 14.9%`. */
  readonly expect: string;
}

/** An upper bound becomes `<=`, a lower bound `>=`; `==` on a measured figure can only be a ceiling. */
const rewrittenOp: Record<ComparisonOp, '<=' | '>=' | undefined> = { '==': '<=', '<': '<=', '<=': '<=', '>': '>=', '>=': '>=', '!=': undefined };

function rounded(value: number, decimals: number, up: boolean): number {
  const scale = 10 ** decimals;
  // The nudge keeps 0.1489999999 from rounding up past what it prints as.
  return (up ? Math.ceil(value * scale - 1e-7) : Math.floor(value * scale + 1e-7)) / scale;
}

function metricValue(item: ExpectMetricItem, report: AuditReport): number | null | undefined {
  const [reward, attack, selection] = item.args.map((a) => a.text);
  const e = report.attacks.find((a) => a.name === attack)?.results.find((r) => r.reward === reward && r.selection === selection)?.estimate;
  if (e === undefined) return undefined;
  switch (item.metric.text) {
    case 'asr': return e.asr;
    case 'upper': return e.interval.high;
    case 'mean_margin': return e.meanMargin;
    case 'worst_margin': return e.worstMargin;
    default: return undefined;
  }
}

function metricExpect(item: ExpectMetricItem, report: AuditReport, text: string): ObservedExpect | undefined {
  const value = metricValue(item, report);
  const op = item.op === undefined ? undefined : rewrittenOp[item.op];
  const lastArg = item.args[item.args.length - 1];
  const close = lastArg === undefined ? -1 : text.indexOf(')', lastArg.span.end);
  if (value === null || value === undefined || op === undefined || close < 0 || close > item.span.end) return undefined;
  const head = text.slice(item.span.start, close + 1);
  const rate = item.metric.text === 'asr' || item.metric.text === 'upper';
  if (rate) {
    const bound = Math.min(100, Math.max(0, rounded(value * 100, 2, op === '<=')));
    return { observed: `${(value * 100).toFixed(2)}%`, expect: `${head} ${op} ${bound}%` };
  }
  const bound = rounded(value, 5, op === '<=');
  return { observed: value.toFixed(5), expect: `${head} ${op} ${bound}` };
}

function minimalExpect(item: ExpectMinimalItem, report: AuditReport, text: string): ObservedExpect | undefined {
  const observed = report.lattice.minimal[0];
  if (observed === undefined || report.lattice.vacuous) return undefined;
  const set = `{${observed.join(', ')}}`;
  return { observed: set, expect: `${text.slice(item.span.start, item.metric.span.end)} == ${set}` };
}

/** The line rewritten to hold on this report; undefined when no figure could make it hold (`!=`, n/a, no minimal repair). */
export function observedExpect(item: ExpectMetricItem | ExpectMinimalItem, report: AuditReport, text: string): ObservedExpect | undefined {
  return item.kind === 'expect-metric' ? metricExpect(item, report, text) : minimalExpect(item, report, text);
}
