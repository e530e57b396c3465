import { isSmallSample, smallSampleMark, smallSampleNote } from '../findings/small-sample.js';
import { cell, paragraph, rateTone, type Bar, type Block, type Cell } from './format-blocks.js';

// A rate over a small sample, zero or not, is marked in every table (the text table and the HTML
// page alike) and the table is followed by the note that says why.

/** A rate cell; marked `†` (and never coloured as good) when it rests on fewer clusters than a zero could vouch for. */
export function rateCell(text: string, asr: number | null, clusters: number, bar?: Bar): Cell {
  if (!isSmallSample(clusters)) return cell(text, rateTone(asr), bar);
  return cell(`${text} ${smallSampleMark}`, 'warn', bar);
}

/** The note under a table, when one of its rates is marked. */
export function smallSampleFootnote(clusters: readonly number[]): Block[] {
  return clusters.some(isSmallSample) ? [paragraph([cell(smallSampleNote, 'muted')])] : [];
}
