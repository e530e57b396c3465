import { fieldDependsOn } from '../semantics/field-depends.js';
import { MarkupKind, type Hover } from 'vscode-languageserver/node';
import { functionSignature } from '../language/builtins.js';
import type { IToken } from 'chevrotain';
import { aggregateDocs, aggregateWords } from '../problems/vocabulary.js';
import { keywordTokens, startsAggregate } from '../syntax/tokens.js';
import type { DeclSymbol, SymbolInfo } from '../semantics/symbols.js';
import {
  attackHeadline, auditWordCategoryNames, codeBlock, declDoc, declHeadline, exprOf, fieldHeadline, functionDoc, generatorText, memberHeadline,
  rewardTermLines, sourceText, termNamedAt, termText, typeAndVisibility, variableHeadline,
} from '../ide/describe.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { auditKeywordDocs, keywordDocs } from '../ide/keyword-docs.js';
import { occurrenceAt, tokenAt, tokenSpan } from '../ide/occurrences.js';
import { auditHoverLines } from './audit-hover.js';
import { importHover } from '../ide/import-clause.js';
import type { Report } from '../report/schema.js';
import type { ComparisonReport, SignalReport } from '../report/training-schema.js';
import { comparisonHoverLines } from './comparison-hover.js';
import { signalHoverLines } from './signal-hover.js';
import { markdownText } from '../ide/row-text.js';

const keywordTypes = new Set(keywordTokens);

/**
 * Text of the user's (a doc string) as a hover prints it: with markdown, every character that could
 * start markup escaped, so `"the last <answer>"` shows its `<answer>` instead of swallowing it as HTML;
 * as written for a plain-text client.
 */
type UserText = (text: string) => string;

function describeSymbol(analysis: DocumentAnalysis, symbol: SymbolInfo, userText: UserText): string[] {
  switch (symbol.kind) {
    case 'attack': {
      const { item } = symbol;
      const lines = [attackHeadline(symbol)];
      if (item.targets.length > 0) lines.push(`targets ${item.targets.map((t) => `\`${t.text}\``).join(', ')}`);
      if (item.generators.length > 0) lines.push(`candidates from ${item.generators.map((g) => `\`${generatorText(analysis, g)}\``).join(', ')}`);
      const kindDoc = item.attackKind === undefined ? undefined : analysis.analyzed.model.edits.get(item.attackKind.text)?.doc;
      if (kindDoc !== undefined) lines.push(userText(kindDoc));
      return lines;
    }
    case 'variable':
      return [variableHeadline(symbol), 'Bound by a quantifier (`any`, `all`, `count`) or an aggregation (`sum`, `max`, `min`, `mean`) to each element of its collection, in its `where` filter and its body.'];
    case 'field':
      return [fieldHeadline(symbol.field), symbol.field.doc];
    case 'member':
      return [memberHeadline(symbol.member, symbol.owner), symbol.member.doc];
    case 'function':
      return [codeBlock(functionSignature(symbol.fn)), functionDoc(symbol.fn)];
    case 'audit-word':
      return [`${auditWordCategoryNames[symbol.category]} \`${symbol.name}\``, symbol.doc];
    default:
      return describeDeclaration(analysis, symbol, userText);
  }
}

/** What a field or reward computed by a program is, in the hover (docs/reward-commands.md). */
function commandLine(program: string, oracle: boolean): string {
  return `Computed by \`${program}\` on every trajectory the analysis evaluates, original and edited (rendered back into its log's format), ` +
    `once per analysis, answers cached; it runs only in a trusted workspace. Its requests ${oracle ? 'carry the gold answers' : 'carry no gold'}.`;
}

function describeDeclaration(analysis: DocumentAnalysis, symbol: DeclSymbol, userText: UserText): string[] {
  const decl = symbol.decl;
  const lines = [declHeadline(analysis, symbol)];
  const doc = declDoc(decl);
  if (doc !== undefined && doc !== '') lines.push(userText(doc));
  const info = analysis.analyzed.model.declInfo.get(decl);
  if (info?.visibility === 'oracle' && info.oracleSource !== undefined) {
    lines.push(`Oracle: reads gold labels through \`${sourceText(analysis, info.oracleSource)}\`.`);
  }
  switch (decl.kind) {
    case 'corpus':
    case 'pool':
      if (decl.path !== undefined) lines.push(`File: \`${decl.path.value}\``);
      break;
    case 'logged':
      if (decl.command !== undefined) {
        lines.push(commandLine(decl.command.program.value, info?.visibility === 'oracle'));
        if (decl.dependsOn !== undefined) lines.push(`Depends on ${fieldDependsOn(decl).map((p) => `\`${p}\``).join(', ')}: an edit that writes none of them keeps the original's value, and sends nothing.`);
        break;
      }
      lines.push(`Logged with each row at \`${decl.path.map((n) => n.text).join('.')}\`; a row without it, or with a value of another type, is skipped.`);
      lines.push(decl.dependsOn === undefined
        ? 'Depends on the whole trajectory (no `depends on`): an edit of any part leaves it as logged unless the pool\'s format renders it, and then the figures are frozen.'
        : `Depends on ${fieldDependsOn(decl).map((p) => `\`${p}\``).join(', ')}: only an edit that writes one of them can leave it stale (frozen) where the pool's format does not render it.`);
      break;
    case 'signal':
    case 'detector': {
      const body = exprOf(decl);
      if (body !== undefined) lines.push(codeBlock(sourceText(analysis, body.span)));
      break;
    }
    case 'edit': {
      // The operations as written, what they change, and whether an attack of it is oracle.
      const edit = analysis.analyzed.model.edits.get(symbol.name);
      lines.push(codeBlock(decl.ops.map((op) => sourceText(analysis, op.span)).join(',\n')));
      if (edit !== undefined) {
        lines.push(`Changes ${[...edit.writes].join(', ') || 'nothing'}.${edit.visibility === 'oracle' ? ' Oracle: it reads gold, so every figure of an attack of it is an oracle upper bound.' : ''}`);
      }
      break;
    }
    case 'reward':
      if (decl.command !== undefined) {
        lines.push(commandLine(decl.command.program.value, true));
        break;
      }
      if (decl.base !== undefined) lines.push(`Derived from \`${decl.base.text}\`, plus:`);
      else if (decl.terms.length > 0) lines.push('Terms:');
      lines.push(rewardTermLines(analysis, decl).join('\n'));
      break;
    case 'training': {
      const trained = decl.items.find((i) => i.kind === 'audit-reward')?.reward?.text;
      if (trained !== undefined) lines.push(`Audits the training signal of \`${trained}\` on its logged update groups (\`herald signal\`).`);
      break;
    }
    case 'comparison': {
      const scorer = decl.items.find((i) => i.kind === 'audit-reward')?.reward?.text;
      if (scorer !== undefined) lines.push(`Pairs two trained policies' evaluation logs; targeted attacks are scored by \`${scorer}\` (\`herald compare\`).`);
      break;
    }
    case 'audit': {
      const audited = decl.items.find((i) => i.kind === 'audit-reward')?.reward?.text;
      const attacks = decl.items.flatMap((i) => (i.kind === 'attack' && i.name !== undefined ? [`\`${i.name.text}\``] : []));
      if (audited !== undefined) lines.push(`Audits \`${audited}\`${attacks.length > 0 ? ` with attacks ${attacks.join(', ')}` : ''}.`);
      break;
    }
  }
  return lines;
}

/** The doc of an aggregation's word (`sum` in `sum s in steps: …`), which is a name, not a keyword. */
function aggregationDoc(analysis: DocumentAnalysis, token: IToken): string | undefined {
  const tokens = analysis.analyzed.parsed.tokens;
  const i = tokens.indexOf(token);
  const [next, after] = [tokens[i + 1], tokens[i + 2]];
  if (next === undefined || after === undefined || !startsAggregate(token, next, after)) return undefined;
  const word = aggregateWords.find((w) => w === token.image);
  return word === undefined ? undefined : aggregateDocs[word].doc;
}

function insideAudit(analysis: DocumentAnalysis, offset: number): boolean {
  return analysis.analyzed.parsed.spec.decls.some((d) => d.kind === 'audit' && d.span.start < offset && offset < d.span.end);
}

/** Markdown as plain text, for clients that show hovers literally: no fences, backticks or bold marks. */
export function plainText(markdown: string): string {
  return markdown.replace(/^```\w*\n?/gm, '').replace(/`([^`]*)`/g, '$1').replace(/\*\*([^*]*)\*\*/g, '$1');
}

/**
 * `report` is the spec's latest audit, whose figures are added to detector, reward and audit hovers;
 * `signals` its latest training-signal audits, added to detector and training-block hovers;
 * `comparisons` its latest comparisons, added to the comparison block's hover.
 * `pairLinks`: the client runs HERALD's commands (it opens worked pairs side by side and the report
 * view), so the pairs a hover names and its last line are links; only with markdown.
 */
export function hover(
  analysis: DocumentAnalysis, offset: number, markdown: boolean, report?: Report, signals?: readonly SignalReport[], pairLinks = false, comparisons?: readonly ComparisonReport[],
): Hover | null {
  const occurrence = occurrenceAt(analysis, offset);
  let lines: string[] | undefined;
  let span = occurrence?.span;
  const named = occurrence === undefined ? termNamedAt(analysis, offset) : undefined;
  const imported = occurrence === undefined && named === undefined ? importHover(analysis.analyzed.parsed.spec, offset) : undefined;
  if (occurrence !== undefined) {
    lines = describeSymbol(analysis, occurrence.symbol, markdown ? markdownText : (text) => text);
    const commandLinks = markdown && pairLinks;
    const audited = auditHoverLines(report, occurrence.symbol, commandLinks, commandLinks ? { uri: analysis.uri } : undefined);
    if (audited.length > 0) lines.push(audited.join('\n'));
    const trained = signalHoverLines(signals, occurrence.symbol, commandLinks);
    if (trained.length > 0) lines.push(trained.join('\n'));
    const compared = comparisonHoverLines(comparisons, occurrence.symbol, commandLinks);
    if (compared.length > 0) lines.push(compared.join('\n'));
  } else if (named !== undefined) {
    const info = analysis.analyzed.model.termInfo.get(named.term);
    const typed = info === undefined ? '' : `: ${typeAndVisibility(info.type, info.visibility)}`;
    lines = [`term \`${named.term.name.text}\` of reward \`${named.reward.name?.text ?? '?'}\`${typed}`, termText(analysis, named.term)];
    span = named.term.name.span;
  } else if (imported !== undefined) {
    lines = imported.lines;
    span = imported.span;
  } else {
    const token = tokenAt(analysis, offset);
    if (token === undefined) return null;
    const word = token.image;
    const aggregation = aggregationDoc(analysis, token);
    if (aggregation === undefined && !keywordTypes.has(token.tokenType)) return null;
    const doc = aggregation ?? (insideAudit(analysis, token.startOffset) ? auditKeywordDocs[word] : undefined) ?? keywordDocs[word];
    if (doc === undefined) return null;
    lines = [`${aggregation === undefined ? 'keyword' : 'aggregation'} \`${word}\``, doc];
    span = tokenSpan(token);
  }
  if (span === undefined) return null;
  return {
    contents: markdown ? { kind: MarkupKind.Markdown, value: lines.join('\n\n') } : { kind: MarkupKind.PlainText, value: plainText(lines.join('\n\n')) },
    range: analysis.lines.range(span),
  };
}
