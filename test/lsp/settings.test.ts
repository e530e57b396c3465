import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings, SettingsStore, toSettings } from '../../server/src/lsp/settings.js';

describe('settings', () => {
  it('reads what a client sent, setting by setting', () => {
    assert.deepEqual(toSettings({ checkLinkedFiles: false, unusedDeclarations: false, audit: { run: 'manual', workers: 3 } }), {
      checkLinkedFiles: false, unusedDeclarations: false, runAudit: 'manual', auditWorkers: 3,
    });
    assert.deepEqual(toSettings({ audit: { run: 'onType' } }), { ...defaultSettings, runAudit: 'onType' });
    assert.deepEqual(toSettings({ audit: { workers: 1 } }), { ...defaultSettings, auditWorkers: 1 });
  });

  it('keeps the default of each setting that is missing or mistyped', () => {
    for (const value of [undefined, null, 3, 'herald', [], {}, { checkLinkedFiles: 'no', audit: 'manual' }, { audit: { run: 'always' } }]) {
      assert.deepEqual(toSettings(value), defaultSettings, JSON.stringify(value));
    }
    assert.deepEqual(toSettings({ unusedDeclarations: false, audit: { run: 7 } }), { ...defaultSettings, unusedDeclarations: false });
    for (const workers of [-1, 2.5, '4', 65, null]) assert.deepEqual(toSettings({ audit: { run: 'manual', workers } }), { ...defaultSettings, runAudit: 'manual' }, String(workers));
  });

  it('a client without workspace/configuration: the last pushed herald section applies, other payloads keep it', async () => {
    const store = new SettingsStore(undefined);
    store.changed({ herald: { audit: { run: 'manual' } } });
    assert.equal((await store.for('file:///a.reward')).runAudit, 'manual');
    store.changed({ other: {} });
    store.changed(null);
    assert.equal((await store.for('file:///a.reward')).runAudit, 'manual');
  });
});
