import { z } from 'zod';
import { maxWorkers } from '../threads/parallel-prepare.js';
import { raisedLimitMebibytes } from '../inputs/input-limits.js';

/** The `herald.*` settings the server reads (declared in the root package.json). */
const auditModes = ['onSave', 'onType', 'manual'] as const;
export type AuditMode = (typeof auditModes)[number];

export interface HeraldSettings {
  readonly checkLinkedFiles: boolean;
  readonly unusedDeclarations: boolean;
  /** When analyses run: on save (and open), after typing pauses, or only on request. */
  readonly runAudit: AuditMode;
  /** Threads that prepare a large audit; 0: the machine's cores (threads/parallel-prepare.ts). */
  readonly auditWorkers: number;
  /** `herald.maxInputMiB`: the input limits raised to this many MiB; undefined (the setting's 0): the defaults. */
  readonly maxInputMiB: number | undefined;
}

export const settingsSection = 'herald';

export const defaultSettings: HeraldSettings = { checkLinkedFiles: true, unusedDeclarations: true, runAudit: 'onSave', auditWorkers: 0, maxInputMiB: undefined };

// Whatever a client sent: each setting that is missing or mistyped keeps its default.
const sectionSchema = z.object({
  checkLinkedFiles: z.boolean().catch(defaultSettings.checkLinkedFiles),
  unusedDeclarations: z.boolean().catch(defaultSettings.unusedDeclarations),
  audit: z.object({
    run: z.enum(auditModes).catch(defaultSettings.runAudit),
    workers: z.number().int().min(0).max(maxWorkers).catch(defaultSettings.auditWorkers),
  }).catch({ run: defaultSettings.runAudit, workers: defaultSettings.auditWorkers }),
  // 0 keeps the defaults; a value the limits cannot take keeps them too, as any mistyped setting does.
  maxInputMiB: z.union([z.literal(0), z.number().int().min(raisedLimitMebibytes.least).max(raisedLimitMebibytes.most)]).catch(0),
});
const payloadSchema = z.object({ [settingsSection]: z.unknown() });

/** Reads settings from whatever a client sent, keeping defaults for anything missing or mistyped. */
export function toSettings(value: unknown): HeraldSettings {
  const parsed = sectionSchema.safeParse(value);
  if (!parsed.success) return defaultSettings;
  return {
    checkLinkedFiles: parsed.data.checkLinkedFiles, unusedDeclarations: parsed.data.unusedDeclarations, runAudit: parsed.data.audit.run, auditWorkers: parsed.data.audit.workers,
    maxInputMiB: parsed.data.maxInputMiB === 0 ? undefined : parsed.data.maxInputMiB,
  };
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
    const section = payloadSchema.safeParse(payload);
    if (section.success && section.data[settingsSection] !== undefined) this.pushed = toSettings(section.data[settingsSection]);
  }

  forget(uri: string): void {
    this.perDocument.delete(uri);
  }
}
