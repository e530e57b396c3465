import { cell, check, heading, paragraph, text, type Block, type Cell } from './format-blocks.js';
import { percent, plural, shortNumber } from '../report/format-numbers.js';
import type { SignalReport } from '../report/training-schema.js';
import { readFileFields } from './read-file-lines.js';

// The training-signal audit, as blocks for the text table and the HTML page (format-document.ts
// appends them after the audits; the comparison's are in format-comparison.ts).

/** The sentence the hover and the report share: why a detector's penalty can vanish in a group. */
export const normalizationIdentity =
  "r̃'_i = (r_i − r̄_g) − λ(ℓ_i − ℓ̄_g): a detector that fires on all or none of a group's samples is cancelled by the group mean; only mixed groups carry it (and dividing by the group's deviation can cancel it there too).";

export function describeSignal(signal: SignalReport): Block[] {
  const blocks: Block[] = [
    heading(`training signal ${signal.name}`, 1),
    {
      kind: 'fields',
      fields: [
        { name: 'reward', value: [text(`${signal.reward.name} (${signal.reward.visibility})`)] },
        { name: 'logs', value: [text(signal.logs.map((l) => `${l.name} (${l.file}, ${plural(l.rows, 'row')}${l.skipped > 0 ? `, ${l.skipped} skipped` : ''})`).join(', '))] },
        ...readFileFields(signal.logs),
        { name: 'groups', value: [text(`${signal.rows} rows in ${signal.groups} groups; ${signal.ungroupedRows} without meta.group; ${signal.flatGroups} with all advantages zero`)] },
        { name: 'advantage', value: [text(signal.normalization === 'std' ? 'A_i = (r_i − r̄_g) / s_g (GRPO)' : 'A_i = r_i − r̄_g (centred only)')] },
        { name: 'min_groups', value: [text(String(signal.minGroups))] },
      ],
    },
    heading('detector exposure'),
    {
      kind: 'table',
      columns: [
        { title: 'detector' }, { title: 'λ', align: 'right' }, { title: 'rows', align: 'right' }, { title: 'share', align: 'right' },
        { title: 'groups', align: 'right' }, { title: 'mixed', align: 'right' }, { title: 'all-firing', align: 'right' },
        { title: 'changed', align: 'right' }, { title: 'cancelled', align: 'right' }, { title: `≥ ${signal.minGroups} changed` },
      ],
      rows: signal.detectors.map((d): Cell[] => [
        text(d.name), text(shortNumber(d.lambda)), text(String(d.firingRows)), text(percent(signal.rows === 0 ? null : d.firingRows / signal.rows)),
        text(String(d.firingGroups)), text(String(d.mixedGroups)), text(String(d.allFiringGroups)),
        cell(String(d.changedGroups), d.reachesOptimizer ? undefined : 'warn'), text(String(d.cancelledGroups)), check(d.reachesOptimizer),
      ]),
    },
    paragraph([text(normalizationIdentity)]),
  ];
  for (const d of signal.detectors) {
    const examples: string[] = [];
    if (d.changedExample !== null) examples.push(`changed: group ${d.changedExample.group} (step ${d.changedExample.step ?? '?'}), fires on ${d.changedExample.firing} of ${d.changedExample.size}, advantages move by up to ${d.changedExample.shift.toFixed(4)}`);
    if (d.cancelledExample !== null) examples.push(`cancelled: group ${d.cancelledExample.group} (step ${d.cancelledExample.step ?? '?'}), fires on ${d.cancelledExample.firing} of ${d.cancelledExample.size}, advantages unchanged`);
    if (examples.length > 0) blocks.push(paragraph([text(`${d.name}: ${examples.join('; ')}.`)]));
  }
  if (signal.steps.length > 0) {
    blocks.push(heading('exposure per training step'));
    const running = signal.detectors.map(() => 0);
    blocks.push({
      kind: 'table',
      columns: [
        { title: 'step', align: 'right' }, { title: 'rows', align: 'right' }, { title: 'groups', align: 'right' },
        ...signal.detectors.flatMap((d) => [{ title: `${d.name} rows`, align: 'right' as const }, { title: `${d.name} groups`, align: 'right' as const }, { title: `${d.name} changed`, align: 'right' as const }, { title: `${d.name} changed Σ`, align: 'right' as const }]),
      ],
      rows: signal.steps.map((s): Cell[] => [
        text(shortNumber(s.step)), text(String(s.rows)), text(String(s.groups)),
        ...s.detectors.flatMap((d, j) => {
          running[j] = running[j]! + d.changedGroups;
          return [text(String(d.firingRows)), text(String(d.firingGroups)), text(String(d.changedGroups)), text(String(running[j]))];
        }),
      ]),
    });
  }
  return blocks;
}
