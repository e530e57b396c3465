/**
 * An audit that cannot produce honest figures (a term or a margin that is not a finite number).
 * Raised inside the audit and turned into a value at its entry points (`auditSpec`, the signal
 * and comparison runs): the run reports `audit-failed` instead of counting garbage as a result.
 */
export class AuditError extends Error {
  /** The row of the audit's pools it happened on, when there is one (named with file:line by the caller). */
  constructor(message: string, readonly row?: number) {
    super(message);
  }
}

/** The readable name of a feature key (`decl:L` → L, `term:R0.answer` → R0.answer). */
export const featureName = (key: string): string => key.slice(key.indexOf(':') + 1);
