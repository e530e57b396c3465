// Issue 13, item 2: `<spec>.baseline.json` is read under the trust rule like every file a spec
// reads (no read through a link to an outside file, no word of a file in a reason), and *accept
// baseline* never writes through a symbolic link or outside the workspace.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { readBaseline, writeBaseline } from '../../server/src/inputs/baseline-file.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import type { Baseline } from '../../server/src/report/baseline-schema.js';
import { secret, workspace } from './workspace.js';

const baseline: Baseline = { version: 1, audits: { quick: { weights: { R0: { answer: 1 } }, figures: { 'launder / R0 / oracle_worst': { asr: 0.1, upper: 0.2, clusters: 40 } } } } };
const validText = `${JSON.stringify(baseline, null, 2)}\n`;

describe('readBaseline', () => {
  const ws = workspace();
  const untrusted = new WorkspaceTrust(false, [ws.dir]);
  const outsideBaseline = path.join(ws.outside, 'baseline.json');
  fs.writeFileSync(outsideBaseline, validText);

  it('reads a baseline inside the workspace; a missing one is none', () => {
    assert.deepEqual(readBaseline(ws.write('a.reward.baseline.json', validText), untrusted), { kind: 'ok', baseline });
    assert.deepEqual(readBaseline(path.join(ws.dir, 'none.reward.baseline.json'), untrusted), { kind: 'none' });
  });

  it('in an untrusted workspace, a link to an outside file (valid or dangling) is not read', () => {
    const link = ws.link('b.reward.baseline.json', outsideBaseline);
    assert.deepEqual(readBaseline(link, untrusted), { kind: 'invalid', reason: 'outside this untrusted workspace: not read' });
    assert.deepEqual(readBaseline(ws.link('c.reward.baseline.json', path.join(ws.outside, 'later.json')), untrusted), { kind: 'invalid', reason: 'outside this untrusted workspace: not read' });
    assert.deepEqual(readBaseline(link), { kind: 'ok', baseline }, 'a trusted workspace follows the link');
  });

  it('a file that is not a baseline is described without a word of it', () => {
    const secrets = ws.link('d.reward.baseline.json', path.join(ws.outside, 'secret.txt'));
    assert.deepEqual(readBaseline(secrets), { kind: 'invalid', reason: 'invalid JSON at line 1, column 1: unexpected character' });
    const shaped = ws.write('e.reward.baseline.json', JSON.stringify({ token: secret, version: 7, audits: { [secret]: 5 } }));
    const read = readBaseline(shaped);
    assert.equal(read.kind, 'invalid');
    assert.ok(read.kind === 'invalid' && !read.reason.includes(secret) && !read.reason.includes('7'), read.kind === 'invalid' ? read.reason : '');
  });

  it('a FIFO or a folder is not a baseline, and reading one does not block', () => {
    assert.deepEqual(readBaseline(ws.fifo('f.reward.baseline.json')), { kind: 'invalid', reason: 'not a regular file (a FIFO)' });
    fs.mkdirSync(path.join(ws.dir, 'g.reward.baseline.json'));
    assert.deepEqual(readBaseline(path.join(ws.dir, 'g.reward.baseline.json')), { kind: 'invalid', reason: 'a folder, not a file' });
  });
});

describe('writeBaseline', () => {
  const ws = workspace();
  const untrusted = new WorkspaceTrust(false, [ws.dir]);
  const leftovers = (): string[] => fs.readdirSync(ws.dir).filter((f) => f.endsWith('.tmp'));

  it('writes a new baseline, and replaces an old one, leaving no temporary file', () => {
    const file = path.join(ws.dir, 'spec.reward.baseline.json');
    assert.deepEqual(writeBaseline(file, baseline, untrusted), { ok: true });
    assert.equal(fs.readFileSync(file, 'utf8'), validText);
    fs.writeFileSync(file, '{"old": true}');
    assert.deepEqual(writeBaseline(file, baseline, untrusted), { ok: true });
    assert.deepEqual(readBaseline(file, untrusted), { kind: 'ok', baseline });
    assert.deepEqual(leftovers(), []);
  });

  it('never writes through a symbolic link: to an outside file, to a missing one, even inside the workspace', () => {
    const victim = path.join(ws.outside, 'victim.txt');
    fs.writeFileSync(victim, 'precious\n');
    const cases = [
      ws.link('linked.reward.baseline.json', victim),
      ws.link('dangling.reward.baseline.json', path.join(ws.outside, 'created.json')),
      ws.link('inside.reward.baseline.json', ws.write('target.json', 'inside\n')),
    ];
    for (const link of cases) {
      for (const trust of [untrusted, WorkspaceTrust.everything]) {
        assert.deepEqual(writeBaseline(link, baseline, trust), { ok: false, reason: `${link} is a symbolic link: a baseline is not written through one` });
      }
      assert.ok(fs.lstatSync(link).isSymbolicLink(), 'the link itself is left alone');
    }
    assert.equal(fs.readFileSync(victim, 'utf8'), 'precious\n');
    assert.ok(!fs.existsSync(path.join(ws.outside, 'created.json')));
    assert.equal(fs.readFileSync(path.join(ws.dir, 'target.json'), 'utf8'), 'inside\n');
    assert.deepEqual(leftovers(), []);
  });

  it('in an untrusted workspace, not outside it (a spec whose folder is a link out of the workspace)', () => {
    const folder = ws.link('escape', ws.outside);
    const file = path.join(folder, 'spec.reward.baseline.json');
    assert.deepEqual(writeBaseline(file, baseline, untrusted), { ok: false, reason: `${file} is outside this untrusted workspace` });
    assert.ok(!fs.existsSync(path.join(ws.outside, 'spec.reward.baseline.json')));
  });

  it('refuses a name that is not a regular file', () => {
    const folder = path.join(ws.dir, 'folder.reward.baseline.json');
    fs.mkdirSync(folder);
    assert.deepEqual(writeBaseline(folder, baseline), { ok: false, reason: `${folder} is not a regular file` });
  });
});

describe('the trust rule and dangling links', () => {
  const ws = workspace();
  const trust = new WorkspaceTrust(false, [ws.dir]);

  it('a dangling link is judged by where it leads, not by where it sits', () => {
    assert.equal(trust.allows(ws.link('out.json', path.join(ws.outside, 'not-yet.json'))), false);
    assert.equal(trust.allows(ws.link('chain.json', path.join(ws.dir, 'out.json'))), false);
    assert.equal(trust.allows(ws.link('in.json', path.join(ws.dir, 'not-yet.json'))), true);
    assert.equal(trust.allows(path.join(ws.dir, 'plain-missing.json')), true);
  });

  it('a loop of links is refused', () => {
    ws.link('loop-a', path.join(ws.dir, 'loop-b'));
    ws.link('loop-b', path.join(ws.dir, 'loop-a'));
    assert.equal(trust.allows(path.join(ws.dir, 'loop-a')), false);
  });
});
