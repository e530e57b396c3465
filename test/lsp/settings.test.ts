import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { Session } from '../../server/src/lsp/session.js';
import { defaultSettings, SettingsStore, toSettings } from '../../server/src/lsp/settings.js';

describe('settings', () => {
  it('reads what a client sent, setting by setting', () => {
    assert.deepEqual(toSettings({ checkLinkedFiles: false, unusedDeclarations: false, audit: { run: 'manual', workers: 3 } }), {
      checkLinkedFiles: false, unusedDeclarations: false, runAudit: 'manual', auditWorkers: 3, maxInputMiB: undefined,
    });
    assert.deepEqual(toSettings({ maxInputMiB: 2048 }), { ...defaultSettings, maxInputMiB: 2048 });
    assert.deepEqual(toSettings({ maxInputMiB: 0 }), defaultSettings, '0 keeps the default limits');
    assert.deepEqual(toSettings({ audit: { run: 'onType' } }), { ...defaultSettings, runAudit: 'onType' });
    assert.deepEqual(toSettings({ audit: { workers: 1 } }), { ...defaultSettings, auditWorkers: 1 });
  });

  it('keeps the default of each setting that is missing or mistyped', () => {
    for (const value of [undefined, null, 3, 'herald', [], {}, { checkLinkedFiles: 'no', audit: 'manual' }, { audit: { run: 'always' } }]) {
      assert.deepEqual(toSettings(value), defaultSettings, JSON.stringify(value));
    }
    assert.deepEqual(toSettings({ unusedDeclarations: false, audit: { run: 7 } }), { ...defaultSettings, unusedDeclarations: false });
    for (const maxInputMiB of [100, 159, 512.5, '512', 65_537, -1, null]) assert.deepEqual(toSettings({ maxInputMiB }), defaultSettings, String(maxInputMiB));
    for (const workers of [-1, 2.5, '4', 65, null]) assert.deepEqual(toSettings({ audit: { run: 'manual', workers } }), { ...defaultSettings, runAudit: 'manual' }, String(workers));
  });

  it('a document is read under the limits its settings raise, with the workspace trust unchanged', async () => {
    const session = new Session();
    session.trust = WorkspaceTrust.of(['/work/space']);
    session.settings = new SettingsStore(() => Promise.resolve({ maxInputMiB: 1024 }));
    const trust = await session.trustFor('file:///work/space/a.reward');
    assert.deepEqual([trust.trusted, trust.folders, trust.limits.file, trust.limits.analysis], [false, ['/work/space'], 1024 * 1024 * 1024, 1024 * 1024 * 1024]);
    session.settings = new SettingsStore(() => Promise.resolve({}));
    assert.equal(await session.trustFor('file:///work/space/a.reward'), session.trust, 'the default limits: the rule itself');
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
