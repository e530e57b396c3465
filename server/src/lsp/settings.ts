/** The `herald.*` settings the server reads (declared in the root package.json). */
export type AuditMode = 'onSave' | 'onType' | 'manual';
const auditModes: readonly AuditMode[] = ['onSave', 'onType', 'manual'];

export interface HeraldSettings {
  readonly checkLinkedFiles: boolean;
  readonly unusedDeclarations: boolean;
  /** When audits run: on save (and open), after typing pauses, or only on request. */
  readonly runAudit: AuditMode;
}

export const settingsSection = 'herald';

export const defaultSettings: HeraldSettings = { checkLinkedFiles: true, unusedDeclarations: true, runAudit: 'onSave' };

/** Reads settings from whatever a client sent, keeping defaults for anything missing or mistyped. */
export function toSettings(value: unknown): HeraldSettings {
  const raw = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const flag = (key: 'checkLinkedFiles' | 'unusedDeclarations'): boolean => (typeof raw[key] === 'boolean' ? (raw[key] as boolean) : defaultSettings[key]);
  const audit = raw['audit'];
  const run = typeof audit === 'object' && audit !== null ? (audit as Record<string, unknown>)['run'] : undefined;
  const runAudit = auditModes.find((m) => m === run) ?? defaultSettings.runAudit;
  return { checkLinkedFiles: flag('checkLinkedFiles'), unusedDeclarations: flag('unusedDeclarations'), runAudit };
}

/** A short stable key, so cached analyses know which settings they were computed with. */
export function settingsKey(settings: HeraldSettings): string {
  return `${settings.checkLinkedFiles ? 'f' : '-'}${settings.unusedDeclarations ? 'u' : '-'}`;
}

/**
 * Settings per document. Clients that answer `workspace/configuration` are asked once per
 * document (resource-scoped settings can differ per folder) until the configuration changes;
 * for the others the last `didChangeConfiguration` payload applies to every document.
 */
export class SettingsStore {
  private readonly perDocument = new Map<string, Promise<HeraldSettings>>();
  private pushed: HeraldSettings = defaultSettings;

  constructor(private readonly fetch: ((uri: string) => Promise<unknown>) | undefined) {}

  for(uri: string): Promise<HeraldSettings> {
    if (this.fetch === undefined) return Promise.resolve(this.pushed);
    let settings = this.perDocument.get(uri);
    if (settings === undefined) {
      // A client that fails to answer should not stop checking: fall back to the defaults.
      settings = this.fetch(uri).then(toSettings, () => defaultSettings);
      this.perDocument.set(uri, settings);
    }
    return settings;
  }

  /** `workspace/didChangeConfiguration`: forget what was asked; keep a pushed payload if any. */
  changed(payload: unknown): void {
    this.perDocument.clear();
    const section = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[settingsSection] : undefined;
    if (section !== undefined) this.pushed = toSettings(section);
  }

  forget(uri: string): void {
    this.perDocument.delete(uri);
  }
}
