import type { AuditFailure } from '../audit/audit-spec.js';
import { resolveLink, specRelative } from '../inputs/paths.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import type { FileOwner } from '../inputs/load-inputs.js';
import { maxListedRows } from '../problems/limits.js';
import type { Problem, RowLocation } from '../problems/problem.js';
import type { Span } from '../problems/span.js';
import type { RowIssue } from '../pool/types.js';
import type { MissingFieldReport, PoolImportReport, PoolResolutionReport, Report } from '../report/schema.js';
import type { SpecModel } from '../semantics/check.js';
import type { PoolDecl } from '../syntax/ast.js';
import { importSentence, unresolvedSentence } from './wording.js';

/** How many skipped rows a finding names in its message; its rows list the first `maxListedRows`. */
const rowsInMessage = 5;

/** Where a file's skipped rows are shown: the declaration it was read for, and what its lines are. */
function ownerSite(owner: FileOwner, model: SpecModel): { readonly span: Span; readonly unit: string } | undefined {
  if (owner.kind === 'candidates') {
    for (const decl of model.spec.decls) {
      if (decl.kind !== 'audit' && decl.kind !== 'comparison') continue;
      for (const item of decl.items) {
        if (item.kind !== 'attack') continue;
        const generator = item.generators.find((g) => g.kind === 'candidates-file' && g.path?.value === owner.link);
        if (generator !== undefined) return { span: generator.span, unit: 'candidate list' };
      }
    }
    return undefined;
  }
  const decl = model.globals.get(owner.name)?.decl;
  if (decl === undefined || decl.kind !== owner.kind || decl.path === undefined) return undefined;
  // An importer skips a framework's records, which are a file's lines as a JSONL pool's rows are.
  return { span: decl.span, unit: decl.kind === 'pool' && decl.source?.format !== undefined ? 'record' : 'row' };
}

/** The rows of a finding as the editor, SARIF and the CLI list them: the first `maxListedRows`, and how many more. */
export function listedRows<T>(all: readonly T[], location: (row: T) => RowLocation, total = all.length): { rows: RowLocation[]; moreRows?: number } {
  const rows: RowLocation[] = [];
  for (let k = 0; k < all.length && k < maxListedRows; k++) rows.push(location(all[k]!));
  return total > rows.length ? { rows, moreRows: total - rows.length } : { rows };
}

/**
 * Skipped rows, one finding per file, on the declaration the file was read for (`owners`, recorded
 * where links were expanded): a corpus or pool declaration (each file of a glob or an imported pool
 * on its own), or the attack's `candidates "FILE"`. Issues name files as they were opened; each
 * resolves against the spec's folder once.
 */
export function rowFindings(issues: readonly RowIssue[], owners: ReadonlyMap<string, FileOwner>, model: SpecModel, specDir: string): Problem[] {
  const byFile = new Map<string, RowIssue[]>();
  const resolved = new Map<string, string>();
  for (const issue of issues) {
    if (issue.line === 0) continue;
    let file = resolved.get(issue.file);
    if (file === undefined) {
      file = resolveLink(specDir, issue.file);
      resolved.set(issue.file, file);
    }
    // Appended in place: a copy per row made 80,000 bad rows take 76 s.
    const rows = byFile.get(file);
    if (rows === undefined) byFile.set(file, [issue]);
    else rows.push(issue);
  }
  const problems: Problem[] = [];
  for (const [file, rows] of byFile) {
    const owner = owners.get(file);
    const site = owner === undefined ? undefined : ownerSite(owner, model);
    if (site === undefined) continue;
    const name = specRelative(specDir, file);
    const shown = rows.slice(0, rowsInMessage).map((r) => `${name}:${r.line}: ${r.reason}`).join('; ');
    problems.push({
      code: auditIssueCodes.badRows, severity: 'error', span: site.span,
      message: `${rows.length} ${site.unit}${rows.length === 1 ? '' : 's'} skipped: ${shown}${rows.length > rowsInMessage ? `; and ${rows.length - rowsInMessage} more` : ''}`,
      ...listedRows(rows, (r) => ({ file, line: r.line, message: `skipped ${site.unit}: ${r.reason}` })),
      key: [name],
    });
  }
  return problems;
}

/**
 * Audits that could not run: a linked file could not be read (an issue on line 0) or a figure was
 * not finite. On each audit's name that the failure concerns.
 */
export function failureFindings(issues: readonly RowIssue[], failures: readonly AuditFailure[], model: SpecModel): Problem[] {
  const unreadable = issues.filter((i) => i.line === 0).map((i) => i.reason);
  return model.spec.decls.flatMap((decl): Problem[] => {
    if (decl.kind !== 'audit' || decl.name === undefined) return [];
    const name = decl.name.text;
    const reasons = [...unreadable, ...failures.filter((f) => f.audit === name).map((f) => f.reason)];
    if (reasons.length === 0) return [];
    // A command that was not run or failed is shown where it is written (a generator, or the field
    // or reward it computes), where trusting the workspace or fixing the program is the fix.
    const command = failures.find((f) => f.audit === name && f.command !== undefined)?.command;
    const generator = command === undefined ? undefined : decl.items.flatMap((i) => (i.kind === 'attack' ? i.generators : [])).find((g) => g.kind === 'candidates-command' && g.command?.value === command);
    const term = command === undefined || generator !== undefined ? undefined
      : model.spec.decls.find((d) => (d.kind === 'logged' || d.kind === 'reward') && d.command?.program.value === command);
    const termSpan = term?.kind === 'logged' || term?.kind === 'reward' ? term.command?.span : undefined;
    return [{ code: auditIssueCodes.auditFailed, severity: 'error', span: generator?.span ?? termSpan ?? decl.name.span, message: `the audit could not run: ${reasons.join('; ')}`, key: [name] }];
  });
}

/** A pool or log as any report section names it, with what it says about its ids and its import. */
interface ReadPool {
  readonly file: string;
  readonly resolution?: PoolResolutionReport | undefined;
  readonly import?: PoolImportReport | undefined;
}

/** Every pool and log a report read, each file once (two audits of one pool say the same). */
function readPools(report: Report): ReadPool[] {
  const all: ReadPool[] = [
    ...report.audits.flatMap((a) => a.pools),
    ...(report.signals ?? []).flatMap((s) => s.logs),
    ...(report.comparisons ?? []).flatMap((c) => [...c.base, ...c.treatment]),
  ];
  const seen = new Set<string>();
  return all.filter((p) => {
    // Against another corpus the same pool resolves differently: that is another thing to say.
    const key = JSON.stringify([p.file, p.resolution, p.import]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The pool declaration that links `file` (spec-relative, as reports name files). */
function poolLinking(model: SpecModel, specDir: string, file: string): PoolDecl | undefined {
  const wanted = resolveLink(specDir, file);
  for (const s of model.globals.values()) {
    if (s.decl.kind === 'pool' && s.decl.path !== undefined && resolveLink(specDir, s.decl.path.value) === wanted) return s.decl;
  }
  return undefined;
}

/**
 * What happened to a linked pool's ids and import, on the link in the spec: an `unresolved-ids`
 * warning when results or citation markers did not resolve against the corpus (the rows with
 * unresolved results are its rows; rows skipped for a citation are `bad-rows` already), and a
 * `pool-imported` note with the importer's counts. A log named on the command line has no link:
 * `unlinkedReadNews` words those for the CLI.
 */
export function readFindings(report: Report | undefined, model: SpecModel, specDir: string): Problem[] {
  if (report === undefined) return [];
  const problems: Problem[] = [];
  for (const pool of readPools(report)) {
    const decl = poolLinking(model, specDir, pool.file);
    if (decl?.path === undefined) continue;
    const span = decl.path.span;
    const unresolved = pool.resolution === undefined ? undefined : unresolvedSentence(pool.resolution);
    if (pool.resolution !== undefined && unresolved !== undefined) {
      const notes = pool.resolution.notes;
      const shown = notes.slice(0, rowsInMessage).map((r) => `${r.file}:${r.line}: ${r.reason}`).join('; ');
      const more = pool.resolution.rowsWithUnresolved - Math.min(notes.length, rowsInMessage);
      problems.push({
        code: auditIssueCodes.unresolvedIds, severity: 'warning', span,
        message: `${pool.file}: ${unresolved}${shown === '' ? '' : `: ${shown}`}${more > 0 ? `; and ${more} more` : ''}`,
        ...listedRows(notes, (r) => ({ file: resolveLink(specDir, r.file), line: r.line, message: r.reason }), pool.resolution.rowsWithUnresolved),
        data: { results: pool.resolution.results.unresolved, rows: pool.resolution.rowsWithUnresolved, citations: pool.resolution.citations.unresolved },
        key: [pool.file],
      });
    }
    if (pool.import !== undefined) {
      const notes = pool.import.notes.length === 0 ? '' : `; ${pool.import.notes.join('; ')}`;
      problems.push({
        code: auditIssueCodes.poolImported, severity: 'information', span,
        message: `${pool.file}: ${importSentence(pool.import)}${notes}`,
        data: { format: pool.import.format, ...pool.import.counts },
        key: [pool.file],
      });
    }
  }
  return problems;
}

/**
 * A pool or log that lacks a logged field an analysis reads there (`missingFields`): a warning on
 * the pool's link per analysis and field, saying how many rows that analysis skips for it; only that
 * analysis skips them (each requires the fields it reads). A file no declaration links is left to `bad-rows`.
 */
export function missingFieldFindings(report: Report | undefined, model: SpecModel, specDir: string): Problem[] {
  if (report === undefined) return [];
  const sections: { readonly what: string; readonly name: string; readonly pools: readonly { readonly file: string; readonly rows: number; readonly missingFields?: readonly MissingFieldReport[] | undefined }[] }[] = [
    ...report.audits.map((a) => ({ what: 'audit', name: a.name, pools: a.pools })),
    ...(report.signals ?? []).map((s) => ({ what: 'training block', name: s.name, pools: s.logs })),
    ...(report.comparisons ?? []).map((c) => ({ what: 'comparison', name: c.name, pools: [...c.base, ...c.treatment] })),
  ];
  const problems: Problem[] = [];
  for (const section of sections) {
    for (const pool of section.pools) {
      const span = poolLinking(model, specDir, pool.file)?.path?.span;
      if (span === undefined) continue;
      for (const f of pool.missingFields ?? []) {
        const none = pool.rows === 0 ? `; it reads no row of ${pool.file}` : '';
        problems.push({
          code: auditIssueCodes.fieldNotLogged, severity: 'warning', span,
          message: `in ${section.what} ${section.name}, ${f.rows} row${f.rows === 1 ? '' : 's'} of ${pool.file} lack${f.rows === 1 ? 's' : ''} the logged field '${f.field}' (${f.path}) or log another type; the ${section.what} reads it, so it skips ${f.rows === 1 ? 'that row' : 'them'}${none}`,
          data: { field: f.field, path: f.path, rows: f.rows, analysis: section.name },
          key: [section.name, pool.file, f.field],
        });
      }
    }
  }
  return problems;
}

/**
 * The same news for the pools and logs no declaration links (named on the command line with
 * `--log`, `--base`, `--treatment`), for the CLI's stderr: a sentence each, with its data rows.
 */
export function unlinkedReadNews(report: Report, model: SpecModel, specDir: string): { readonly text: string; readonly rows: readonly RowIssue[] }[] {
  return readPools(report).flatMap((pool) => {
    if (poolLinking(model, specDir, pool.file)?.path !== undefined) return [];
    const unresolved = pool.resolution === undefined ? undefined : unresolvedSentence(pool.resolution);
    return [
      ...(pool.import === undefined ? [] : [{ text: `${pool.file}: ${importSentence(pool.import)}${pool.import.notes.length === 0 ? '' : `; ${pool.import.notes.join('; ')}`}`, rows: [] }]),
      ...(unresolved === undefined ? [] : [{ text: `${pool.file}: ${unresolved}`, rows: pool.resolution?.notes ?? [] }]),
    ];
  });
}
