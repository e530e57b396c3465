import type { Span } from '../problems/span.js';
import type { CstNode, IToken } from 'chevrotain';
import type * as A from './ast.js';
import { rewardParser } from './parser.js';

type Children = Record<string, (CstNode | IToken)[] | undefined>;

/** A token the recovering parser really read (inserted tokens have no position and no text). */
function tok(children: Children, key: string, index = 0): IToken | undefined {
  const t = children[key]?.[index] as IToken | undefined;
  if (t === undefined || t.isInsertedInRecovery === true || Number.isNaN(t.startOffset)) return undefined;
  return t;
}

function tokens(children: Children, key: string): IToken[] {
  return ((children[key] ?? []) as IToken[]).filter((t) => t.isInsertedInRecovery !== true && !Number.isNaN(t.startOffset));
}

function sub(children: Children, key: string, index = 0): CstNode | undefined {
  return children[key]?.[index] as CstNode | undefined;
}

function subs(children: Children, key: string): CstNode[] {
  return (children[key] ?? []) as CstNode[];
}

function tokenSpan(t: IToken): Span {
  return { start: t.startOffset, end: (t.endOffset ?? t.startOffset) + 1 };
}

/** The smallest span covering the given parts; parts the parser never read are skipped. */
function cover(...parts: (Span | IToken | { span: Span } | undefined)[]): Span {
  let start = Infinity;
  let end = -Infinity;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === undefined) continue;
    // Tokens carry offsets; AST nodes and names carry a span; a bare span is itself.
    const token = part as IToken;
    if (token.startOffset !== undefined) {
      if (token.startOffset < start) start = token.startOffset;
      const tokenEnd = (token.endOffset ?? token.startOffset) + 1;
      if (tokenEnd > end) end = tokenEnd;
      continue;
    }
    const span = (part as { span?: Span }).span ?? (part as Span);
    if (span.start < start) start = span.start;
    if (span.end > end) end = span.end;
  }
  return start === Infinity ? { start: 0, end: 0 } : { start, end };
}

function nameOf(t: IToken | undefined): A.Name | undefined {
  return t === undefined ? undefined : { text: t.image, span: tokenSpan(t) };
}

function unquote(image: string): string {
  return image.slice(1, -1).replace(/\\(.)/g, '$1');
}

function stringOf(t: IToken | undefined): A.StringLit | undefined {
  return t === undefined ? undefined : { kind: 'string', value: unquote(t.image), span: tokenSpan(t) };
}

function numberOf(t: IToken | undefined): A.NumberLit | undefined {
  return t === undefined ? undefined : { kind: 'number', value: Number(t.image), span: tokenSpan(t) };
}

const comparisonTokens: Record<string, A.ComparisonOp> = {
  EqEq: '==', NotEq: '!=', LessEq: '<=', GreaterEq: '>=', Less: '<', Greater: '>',
};

const notPrecedence = 3;
const binaryPrecedence: Record<A.BinaryOp, number> = {
  or: 1, and: 2,
  '==': 4, '!=': 4, '<': 4, '<=': 4, '>': 4, '>=': 4, in: 4, 'not in': 4,
  '+': 5, '-': 5, '*': 6, '/': 6,
};

const BaseVisitor = rewardParser.getBaseCstVisitorConstructor();

/** Turns the CST into the AST. Every method tolerates children the recovering parser left out. */
class AstBuilder extends BaseVisitor {
  constructor() {
    super();
    this.validateVisitor();
  }

  private expr(node: CstNode | undefined): A.Expr | undefined {
    return node === undefined ? undefined : (this.visit(node) as A.Expr | undefined);
  }

  spec(c: Children): A.Decl[] {
    return subs(c, 'declaration')
      .map((d) => this.visit(d) as A.Decl | undefined)
      .filter((d): d is A.Decl => d !== undefined);
  }

  declaration(c: Children): A.Decl | undefined {
    const inner = Object.values(c)[0]?.[0] as CstNode | undefined;
    return inner === undefined ? undefined : (this.visit(inner) as A.Decl);
  }

  corpusDecl(c: Children): A.CorpusDecl {
    const name = nameOf(tok(c, 'Identifier'));
    const path = stringOf(tok(c, 'StringLiteral'));
    return { kind: 'corpus', name, path, span: cover(tok(c, 'Corpus'), name, path) };
  }

  poolDecl(c: Children): A.PoolDecl {
    const name = nameOf(tok(c, 'Identifier'));
    const path = stringOf(tok(c, 'StringLiteral'));
    return { kind: 'pool', name, path, span: cover(tok(c, 'Pool'), name, path) };
  }

  signalDecl(c: Children): A.SignalDecl {
    const name = nameOf(tok(c, 'Identifier'));
    const doc = stringOf(tok(c, 'StringLiteral'));
    const body = this.expr(sub(c, 'expression'));
    return { kind: 'signal', name, doc, body, span: cover(tok(c, 'Signal'), name, doc, tok(c, 'Equals'), body) };
  }

  detectorDecl(c: Children): A.DetectorDecl {
    const name = nameOf(tok(c, 'Identifier'));
    const doc = stringOf(tok(c, 'StringLiteral'));
    const body = this.expr(sub(c, 'expression'));
    return { kind: 'detector', name, doc, body, span: cover(tok(c, 'Detector'), name, doc, tok(c, 'Equals'), body) };
  }

  rewardDecl(c: Children): A.RewardDecl {
    const name = nameOf(tok(c, 'Identifier'));
    const doc = stringOf(tok(c, 'StringLiteral'));
    const base = nameOf(tok(c, 'base'));
    const terms = [...subs(c, 'term'), ...subs(c, 'derivedTerm')]
      .map((t) => this.visit(t) as A.Term | undefined)
      .filter((t): t is A.Term => t !== undefined);
    const span = cover(tok(c, 'Reward'), name, doc, tok(c, 'LBrace'), tok(c, 'Equals'), base, ...terms, tok(c, 'RBrace'));
    return { kind: 'reward', name, doc, base, terms, span };
  }

  term(c: Children): A.Term | undefined {
    const name = nameOf(tok(c, 'Identifier'));
    if (name === undefined) return undefined;
    const weight = this.visit(sub(c, 'signedNumber')!) as { value: number | undefined; span: Span | undefined } | undefined;
    const body = this.expr(sub(c, 'expression'));
    return {
      kind: 'term', name, weight: weight?.value, weightSpan: weight?.span, body, derived: false,
      span: cover(name, weight?.span, tok(c, 'Star'), body),
    };
  }

  derivedTerm(c: Children): A.Term | undefined {
    const sign = tok(c, 'Plus') ?? tok(c, 'Minus');
    const number = tok(c, 'NumberLiteral');
    const body = this.expr(sub(c, 'postfixExpression'));
    if (body === undefined) return undefined;
    // The term is named after what it weighs: `L` in `- 1.2 * L`, `misses` in `- 0.8 * misses(...)`.
    const label = body.kind === 'name' ? body.name : body.kind === 'call' ? body.callee : { text: '(expression)', span: body.span };
    const magnitude = number === undefined ? undefined : Number(number.image);
    const weight = magnitude === undefined ? undefined : sign?.image === '-' ? -magnitude : magnitude;
    return {
      kind: 'term', name: label, weight, weightSpan: number === undefined ? undefined : cover(sign, number), body, derived: true,
      span: cover(sign, number, tok(c, 'Star'), body),
    };
  }

  signedNumber(c: Children): { value: number | undefined; span: Span | undefined } {
    const number = tok(c, 'NumberLiteral');
    if (number === undefined) return { value: undefined, span: undefined };
    const minus = tok(c, 'Minus');
    const plus = tok(c, 'Plus');
    const value = Number(number.image);
    return { value: minus ? -value : value, span: cover(minus ?? plus, number) };
  }

  auditDecl(c: Children): A.AuditDecl {
    const name = nameOf(tok(c, 'Identifier'));
    const doc = stringOf(tok(c, 'StringLiteral'));
    const items = subs(c, 'auditItem')
      .map((i) => this.visit(i) as A.AuditItem | undefined)
      .filter((i): i is A.AuditItem => i !== undefined);
    return { kind: 'audit', name, doc, items, span: cover(tok(c, 'Audit'), name, doc, tok(c, 'LBrace'), ...items, tok(c, 'RBrace')) };
  }

  trainingDecl(c: Children): A.TrainingDecl {
    const name = nameOf(tok(c, 'Identifier'));
    const doc = stringOf(tok(c, 'StringLiteral'));
    const items = this.blockItems(c);
    return { kind: 'training', name, doc, items, span: cover(tok(c, 'Training'), name, doc, tok(c, 'LBrace'), ...items, tok(c, 'RBrace')) };
  }

  comparisonDecl(c: Children): A.ComparisonDecl {
    const name = nameOf(tok(c, 'Identifier'));
    const doc = stringOf(tok(c, 'StringLiteral'));
    const items = this.blockItems(c);
    return { kind: 'comparison', name, doc, items, span: cover(tok(c, 'Comparison'), name, doc, tok(c, 'LBrace'), ...items, tok(c, 'RBrace')) };
  }

  private blockItems(c: Children): A.BlockItem[] {
    return subs(c, 'blockItem')
      .map((i) => this.visit(i) as A.BlockItem | undefined)
      .filter((i): i is A.BlockItem => i !== undefined);
  }

  blockItem(c: Children): A.BlockItem | undefined {
    const inner = Object.values(c)[0]?.[0] as CstNode | undefined;
    return inner === undefined ? undefined : (this.visit(inner) as A.BlockItem | undefined);
  }

  optionItem(c: Children): A.OptionItem | undefined {
    const key = nameOf(tok(c, 'key'));
    if (key === undefined) return undefined;
    const values = subs(c, 'optionValue')
      .map((v) => this.visit(v) as A.OptionValue | undefined)
      .filter((v): v is A.OptionValue => v !== undefined);
    return { kind: 'option', key, values, span: cover(key, ...values) };
  }

  optionValue(c: Children): A.OptionValue | undefined {
    const name = nameOf(tok(c, 'Identifier'));
    if (name !== undefined) return { kind: 'name', name, span: name.span };
    const n = sub(c, 'signedNumber');
    const number = n === undefined ? undefined : (this.visit(n) as { value: number | undefined; span: Span | undefined });
    if (number?.value === undefined || number.span === undefined) return undefined;
    const percent = tok(c, 'Percent');
    return { kind: 'number', value: number.value, percent: percent !== undefined, span: cover(number.span, percent) };
  }

  auditItem(c: Children): A.AuditItem | undefined {
    const inner = Object.values(c)[0]?.[0] as CstNode | undefined;
    return inner === undefined ? undefined : (this.visit(inner) as A.AuditItem);
  }

  auditReward(c: Children): A.AuditRewardItem {
    const reward = nameOf(tok(c, 'Identifier'));
    return { kind: 'audit-reward', reward, span: cover(tok(c, 'Reward'), reward) };
  }

  auditCompare(c: Children): A.AuditCompareItem {
    const rewards = this.names(sub(c, 'nameList'));
    return { kind: 'audit-compare', rewards, span: cover(tok(c, 'Compare'), ...rewards) };
  }

  auditCorpus(c: Children): A.AuditCorpusItem {
    const corpus = nameOf(tok(c, 'Identifier'));
    return { kind: 'audit-corpus', corpus, span: cover(tok(c, 'Corpus'), corpus) };
  }

  auditPools(c: Children): A.AuditPoolsItem {
    const pools = this.names(sub(c, 'nameList'));
    return { kind: 'audit-pools', pools, span: cover(tok(c, 'Pools'), ...pools) };
  }

  private names(node: CstNode | undefined): A.Name[] {
    return node === undefined ? [] : (this.visit(node) as A.Name[]);
  }

  nameList(c: Children): A.Name[] {
    return tokens(c, 'Identifier').map((t) => nameOf(t)!);
  }

  attackItem(c: Children): A.AttackItem {
    const name = nameOf(tok(c, 'name'));
    const attackKind = tok(c, 'Equals') !== undefined ? nameOf(tok(c, 'attackKind')) : name;
    const targets = this.names(sub(c, 'nameList'));
    const generators = subs(c, 'generator')
      .map((g) => this.visit(g) as A.Generator | undefined)
      .filter((g): g is A.Generator => g !== undefined);
    return {
      kind: 'attack', name, attackKind, targets, generators,
      span: cover(tok(c, 'Attack'), name, attackKind, tok(c, 'Targets'), ...targets, tok(c, 'Using'), ...generators),
    };
  }

  generator(c: Children): A.Generator | undefined {
    const candidates = tok(c, 'Candidates');
    if (candidates !== undefined) {
      const path = stringOf(tok(c, 'StringLiteral'));
      return { kind: 'candidates-file', path, span: cover(candidates, path) };
    }
    const generator = nameOf(tok(c, 'Identifier'));
    if (generator === undefined) return undefined;
    const budget = numberOf(tok(c, 'NumberLiteral'));
    return { kind: 'generator', generator, budget, span: cover(generator, tok(c, 'LParen'), budget, tok(c, 'RParen')) };
  }

  latticeItem(c: Children): A.LatticeItem {
    const entries = subs(c, 'latticeEntry')
      .map((e) => this.visit(e) as A.LatticeEntry | undefined)
      .filter((e): e is A.LatticeEntry => e !== undefined);
    return { kind: 'lattice', entries, span: cover(tok(c, 'Lattice'), ...entries) };
  }

  latticeEntry(c: Children): A.LatticeEntry | undefined {
    const detector = nameOf(tok(c, 'Identifier'));
    if (detector === undefined) return undefined;
    const n = sub(c, 'signedNumber');
    const weight = n === undefined ? undefined : (this.visit(n) as { value: number | undefined; span: Span | undefined });
    const lambda: A.NumberLit | undefined =
      weight?.value === undefined || weight.span === undefined ? undefined : { kind: 'number', value: weight.value, span: weight.span };
    return { detector, lambda, span: cover(detector, tok(c, 'Equals'), lambda) };
  }

  expectItem(c: Children): A.ExpectMetricItem | A.ExpectMinimalItem | undefined {
    const metric = nameOf(tok(c, 'metric'));
    if (metric === undefined) return undefined;
    const opNode = sub(c, 'comparisonOperator');
    const op = opNode === undefined ? undefined : (this.visit(opNode) as A.ComparisonOp | undefined);
    const start = tok(c, 'Expect');
    if (tok(c, 'LBrace') !== undefined) {
      const detectors = this.names(sub(c, 'set'));
      return { kind: 'expect-minimal', metric, detectors, span: cover(start, metric, tok(c, 'LBrace'), ...detectors, tok(c, 'RBrace')) };
    }
    const args = this.names(sub(c, 'args'));
    const n = sub(c, 'signedNumber');
    const weight = n === undefined ? undefined : (this.visit(n) as { value: number | undefined; span: Span | undefined });
    const value: A.NumberLit | undefined =
      weight?.value === undefined || weight.span === undefined ? undefined : { kind: 'number', value: weight.value, span: weight.span };
    const percent = tok(c, 'Percent');
    return {
      kind: 'expect-metric', metric, args, op, value, percent: percent !== undefined,
      span: cover(start, metric, tok(c, 'RParen'), ...args, value, percent),
    };
  }

  settingItem(c: Children): A.SettingItem | undefined {
    const keyToken = tok(c, 'Seed') ?? tok(c, 'Bootstrap') ?? tok(c, 'Sweep');
    if (keyToken === undefined) return undefined;
    const values = tokens(c, 'NumberLiteral').map((t) => numberOf(t)!);
    return { kind: 'setting', key: keyToken.image as A.SettingKey, keySpan: tokenSpan(keyToken), values, span: cover(keyToken, ...values) };
  }

  comparisonOperator(c: Children): A.ComparisonOp | undefined {
    for (const [tokenName, op] of Object.entries(comparisonTokens)) if (tok(c, tokenName) !== undefined) return op;
    return undefined;
  }

  /**
   * Operator-precedence parsing of the flat `expression` rule. A prefix `not` binds looser than
   * comparisons and tighter than `and` (`not a == b and c` is `(not (a == b)) and c`); binary
   * operators associate to the left.
   */
  expression(c: Children): A.Expr | undefined {
    const operands = subs(c, 'operands');
    const operators = subs(c, 'operators').map((o) => this.visit(o) as A.BinaryOp | undefined);
    const values: (A.Expr | undefined)[] = [];
    const pending: ({ kind: 'binary'; op: A.BinaryOp } | { kind: 'not'; token: IToken })[] = [];
    const apply = (): void => {
      const top = pending.pop()!;
      if (top.kind === 'not') {
        const operand = values.pop();
        values.push({ kind: 'unary', op: 'not', operand, span: cover(top.token, operand) });
        return;
      }
      const right = values.pop();
      const left = values.pop();
      // A recovered operand may be missing: keep whichever side the parser did read.
      values.push(left === undefined ? right : { kind: 'binary', op: top.op, left, right, span: cover(left, right) });
    };
    operands.forEach((operand, i) => {
      if (i > 0) {
        const op = operators[i - 1];
        if (op === undefined) return;
        const precedence = binaryPrecedence[op];
        while (pending.length > 0) {
          const top = pending[pending.length - 1]!;
          const topPrecedence = top.kind === 'not' ? notPrecedence : binaryPrecedence[top.op];
          if (topPrecedence < precedence) break;
          apply();
        }
        pending.push({ kind: 'binary', op });
      }
      const inner = (operand as CstNode).children as Children;
      for (const not of tokens(inner, 'Not')) pending.push({ kind: 'not', token: not });
      values.push(this.expr(sub(inner, 'unary')));
    });
    while (pending.length > 0) apply();
    return values[0];
  }

  prefixedOperand(): undefined {
    // Read by `expression`, which needs the prefixes and the operand separately.
    return undefined;
  }

  binaryOperator(c: Children): A.BinaryOp | undefined {
    const comparison = sub(c, 'comparisonOperator');
    if (comparison !== undefined) return this.visit(comparison) as A.ComparisonOp | undefined;
    if (tok(c, 'In') !== undefined) return tok(c, 'Not') !== undefined ? 'not in' : 'in';
    const t = tok(c, 'Or') ?? tok(c, 'And') ?? tok(c, 'Plus') ?? tok(c, 'Minus') ?? tok(c, 'Star') ?? tok(c, 'Slash');
    return t?.image as A.BinaryOp | undefined;
  }

  unary(c: Children): A.Expr | undefined {
    const minus = tok(c, 'Minus');
    if (minus === undefined) return this.expr(sub(c, 'postfixExpression'));
    const operand = this.expr(sub(c, 'unary'));
    return { kind: 'unary', op: '-', operand, span: cover(minus, operand) };
  }

  postfixExpression(c: Children): A.Expr | undefined {
    let object = this.expr(sub(c, 'primary'));
    if (object === undefined) return undefined;
    const dots = tokens(c, 'Dot');
    const members = (c['members'] ?? []) as IToken[];
    dots.forEach((dot, i) => {
      const member = members[i];
      const property = member !== undefined && member.isInsertedInRecovery !== true && !Number.isNaN(member.startOffset) ? nameOf(member) : undefined;
      object = { kind: 'member', object: object!, property, span: cover(object, dot, property) };
    });
    return object;
  }

  primary(c: Children): A.Expr | undefined {
    const number = tok(c, 'NumberLiteral');
    if (number !== undefined) return numberOf(number);
    const string = tok(c, 'StringLiteral');
    if (string !== undefined) return stringOf(string);
    const boolean = tok(c, 'True') ?? tok(c, 'False');
    if (boolean !== undefined) return { kind: 'bool', value: boolean.image === 'true', span: tokenSpan(boolean) };
    const corpus = nameOf(tok(c, 'Corpus'));
    if (corpus !== undefined) return { kind: 'name', name: corpus, span: corpus.span };
    const inner = sub(c, 'quantifier') ?? sub(c, 'countCall') ?? sub(c, 'callOrName') ?? sub(c, 'parenthesized');
    return this.expr(inner);
  }

  quantifier(c: Children): A.QuantifierExpr | undefined {
    const keyword = tok(c, 'Any') ?? tok(c, 'All') ?? tok(c, 'Count');
    if (keyword === undefined) return undefined;
    const variable = nameOf(tok(c, 'Identifier'));
    const collection = this.expr(sub(c, 'postfixExpression'));
    const body = this.expr(sub(c, 'expression'));
    return {
      kind: 'quantifier', quantifier: keyword.image as A.Quantifier, variable, collection, body,
      span: cover(keyword, variable, tok(c, 'In'), collection, tok(c, 'Colon'), body),
    };
  }

  countCall(c: Children): A.CallExpr | undefined {
    const keyword = tok(c, 'Count');
    if (keyword === undefined) return undefined;
    const list = sub(c, 'argumentList');
    const args = list === undefined ? { args: [], span: undefined } : (this.visit(list) as { args: A.Expr[]; span: Span });
    return { kind: 'call', callee: nameOf(keyword)!, args: args.args, span: cover(keyword, args.span) };
  }

  callOrName(c: Children): A.NameRef | A.CallExpr | undefined {
    const name = nameOf(tok(c, 'Identifier'));
    if (name === undefined) return undefined;
    const list = sub(c, 'argumentList');
    if (list === undefined) return { kind: 'name', name, span: name.span };
    const args = this.visit(list) as { args: A.Expr[]; span: Span };
    return { kind: 'call', callee: name, args: args.args, span: cover(name, args.span) };
  }

  argumentList(c: Children): { args: A.Expr[]; span: Span } {
    const args = subs(c, 'expression')
      .map((e) => this.expr(e))
      .filter((e): e is A.Expr => e !== undefined);
    return { args, span: cover(tok(c, 'LParen'), ...args, tok(c, 'RParen')) };
  }

  parenthesized(c: Children): A.Expr | undefined {
    return this.expr(sub(c, 'expression'));
  }
}

export const astBuilder = new AstBuilder();
