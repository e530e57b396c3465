import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { followActiveSpec, reportNote } from '../../client/src/report-panel-state.js';

// The report panel's decisions (client/src/report-panel-state.ts): following the active spec, and
// the line saying what the report is of.

const a = 'file:///w/a.reward';
const b = 'file:///w/b.reward';

describe('the report panel', () => {
  it('follows the spec the reader switches to: the panel on screen shows it instead', () => {
    assert.deepEqual(followActiveSpec([{ spec: a, visible: true }], b), { kind: 'retarget', from: a });
  });

  it('brings that spec\'s own panel to the front when it has one, and leaves a panel already showing it', () => {
    assert.deepEqual(followActiveSpec([{ spec: a, visible: true }, { spec: b, visible: false }], b), { kind: 'reveal', spec: b });
    assert.deepEqual(followActiveSpec([{ spec: a, visible: false }, { spec: b, visible: true }], b), { kind: 'stay' });
  });

  it('opens nothing when no report is on screen', () => {
    assert.deepEqual(followActiveSpec([], b), { kind: 'stay' });
    assert.deepEqual(followActiveSpec([{ spec: a, visible: false }], b), { kind: 'stay' });
    assert.deepEqual(followActiveSpec([{ spec: a, visible: false }, { spec: b, visible: false }], b), { kind: 'stay' });
  });

  it('names the spec and the time, never a document version, and says when the text moved on', () => {
    assert.equal(reportNote('paper.reward', '5/1/2025, 14:02:11', 1187, undefined), 'Audit of paper.reward, finished 5/1/2025, 14:02:11.');
    assert.equal(reportNote('paper.reward', '14:02', 1187, { version: 1187, dirty: false }), 'Audit of paper.reward, finished 14:02.');
    assert.equal(reportNote('paper.reward', '14:02', 1187, { version: 1187, dirty: true }), 'Audit of paper.reward, finished 14:02, of unsaved changes.');
    assert.equal(reportNote('paper.reward', '14:02', 1187, { version: 1190, dirty: true }), 'Audit of paper.reward, finished 14:02; the spec has changed since.');
    assert.doesNotMatch(reportNote('paper.reward', '14:02', 1187, { version: 1190, dirty: false }), /version|1187/);
  });
});
