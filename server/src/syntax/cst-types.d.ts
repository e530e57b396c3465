// Generated from the grammar in parser.ts by `npm run docs` (scripts/write-cst-types.mjs, Chevrotain's
// generateCstDts): the children of every CST node, for build-ast.ts. Do not edit by hand; a test fails when it is stale.
// A node the recovering parser cut short may lack children these types call required: build-ast.ts reads them as Partial.

import type { CstNode, ICstVisitor, IToken } from "chevrotain";

export interface SignedNumberCstNode extends CstNode {
  name: "signedNumber";
  children: SignedNumberCstChildren;
}

export type SignedNumberCstChildren = {
  Plus?: IToken[];
  Minus?: IToken[];
  NumberLiteral: IToken[];
};

export interface ComparisonOperatorCstNode extends CstNode {
  name: "comparisonOperator";
  children: ComparisonOperatorCstChildren;
}

export type ComparisonOperatorCstChildren = {
  EqEq?: IToken[];
  NotEq?: IToken[];
  LessEq?: IToken[];
  GreaterEq?: IToken[];
  Less?: IToken[];
  Greater?: IToken[];
};

export interface ExpressionCstNode extends CstNode {
  name: "expression";
  children: ExpressionCstChildren;
}

export type ExpressionCstChildren = {
  operands: (PrefixedOperandCstNode)[];
  operators?: BinaryOperatorCstNode[];
};

export interface PrefixedOperandCstNode extends CstNode {
  name: "prefixedOperand";
  children: PrefixedOperandCstChildren;
}

export type PrefixedOperandCstChildren = {
  Not?: IToken[];
  unary: UnaryCstNode[];
};

export interface BinaryOperatorCstNode extends CstNode {
  name: "binaryOperator";
  children: BinaryOperatorCstChildren;
}

export type BinaryOperatorCstChildren = {
  Or?: IToken[];
  And?: IToken[];
  comparisonOperator?: ComparisonOperatorCstNode[];
  In?: (IToken)[];
  Not?: IToken[];
  Plus?: IToken[];
  Minus?: IToken[];
  Star?: IToken[];
  Slash?: IToken[];
};

export interface UnaryCstNode extends CstNode {
  name: "unary";
  children: UnaryCstChildren;
}

export type UnaryCstChildren = {
  Minus?: IToken[];
  unary?: UnaryCstNode[];
  postfixExpression?: PostfixExpressionCstNode[];
};

export interface PostfixExpressionCstNode extends CstNode {
  name: "postfixExpression";
  children: PostfixExpressionCstChildren;
}

export type PostfixExpressionCstChildren = {
  primary: PrimaryCstNode[];
  Dot?: IToken[];
  members?: IToken[];
};

export interface PrimaryCstNode extends CstNode {
  name: "primary";
  children: PrimaryCstChildren;
}

export type PrimaryCstChildren = {
  NumberLiteral?: IToken[];
  StringLiteral?: IToken[];
  True?: IToken[];
  False?: IToken[];
  Corpus?: IToken[];
  quantifier?: QuantifierCstNode[];
  conditional?: ConditionalCstNode[];
  countCall?: CountCallCstNode[];
  aggregate?: AggregateCstNode[];
  callOrName?: CallOrNameCstNode[];
  parenthesized?: ParenthesizedCstNode[];
};

export interface QuantifierCstNode extends CstNode {
  name: "quantifier";
  children: QuantifierCstChildren;
}

export type QuantifierCstChildren = {
  quantifier?: (IToken)[];
  Identifier: IToken[];
  In: IToken[];
  postfixExpression: PostfixExpressionCstNode[];
  filter: FilterCstNode[];
  Colon: IToken[];
  expression: ExpressionCstNode[];
};

export interface AggregateCstNode extends CstNode {
  name: "aggregate";
  children: AggregateCstChildren;
}

export type AggregateCstChildren = {
  aggregator: IToken[];
  variable: IToken[];
  In: IToken[];
  postfixExpression: PostfixExpressionCstNode[];
  filter: FilterCstNode[];
  Colon: IToken[];
  body: ExpressionCstNode[];
  Else?: IToken[];
  fallback?: ExpressionCstNode[];
};

export interface FilterCstNode extends CstNode {
  name: "filter";
  children: FilterCstChildren;
}

export type FilterCstChildren = {
  where?: IToken[];
  expression?: ExpressionCstNode[];
};

export interface ConditionalCstNode extends CstNode {
  name: "conditional";
  children: ConditionalCstChildren;
}

export type ConditionalCstChildren = {
  If: IToken[];
  condition: ExpressionCstNode[];
  Then: IToken[];
  whenTrue: ExpressionCstNode[];
  Else: IToken[];
  whenFalse: ExpressionCstNode[];
};

export interface CountCallCstNode extends CstNode {
  name: "countCall";
  children: CountCallCstChildren;
}

export type CountCallCstChildren = {
  Count: IToken[];
  argumentList: ArgumentListCstNode[];
};

export interface CallOrNameCstNode extends CstNode {
  name: "callOrName";
  children: CallOrNameCstChildren;
}

export type CallOrNameCstChildren = {
  Identifier: IToken[];
  argumentList?: ArgumentListCstNode[];
};

export interface ArgumentListCstNode extends CstNode {
  name: "argumentList";
  children: ArgumentListCstChildren;
}

export type ArgumentListCstChildren = {
  LParen: IToken[];
  expression?: ExpressionCstNode[];
  Comma?: IToken[];
  RParen: IToken[];
};

export interface ParenthesizedCstNode extends CstNode {
  name: "parenthesized";
  children: ParenthesizedCstChildren;
}

export type ParenthesizedCstChildren = {
  LParen: IToken[];
  expression: ExpressionCstNode[];
  RParen: IToken[];
};

export interface EditDeclCstNode extends CstNode {
  name: "editDecl";
  children: EditDeclCstChildren;
}

export type EditDeclCstChildren = {
  keyword: IToken[];
  name: IToken[];
  StringLiteral?: IToken[];
  when?: IToken[];
  guard?: ExpressionCstNode[];
  Equals: IToken[];
  editOp: EditOpCstNode[];
  Comma?: IToken[];
};

export interface EditOpCstNode extends CstNode {
  name: "editOp";
  children: EditOpCstChildren;
}

export type EditOpCstChildren = {
  verb: IToken[];
  field?: IToken[];
  Equals?: IToken[];
  value?: ExpressionCstNode[];
  editBinder?: EditBinderCstNode[];
  with?: IToken[];
  editSource?: EditSourceCstNode[];
  to?: IToken[];
  destination?: IToken[];
};

export interface EditBinderCstNode extends CstNode {
  name: "editBinder";
  children: EditBinderCstChildren;
}

export type EditBinderCstChildren = {
  mode?: (IToken)[];
  variable: IToken[];
  In: IToken[];
  collection: ExpressionCstNode[];
  where?: IToken[];
  condition?: ExpressionCstNode[];
};

export interface EditSourceCstNode extends CstNode {
  name: "editSource";
  children: EditSourceCstChildren;
}

export type EditSourceCstChildren = {
  variable?: IToken[];
  In?: IToken[];
  collection?: ExpressionCstNode[];
  where?: IToken[];
  condition?: ExpressionCstNode[];
  word?: IToken[];
};

export interface SpecCstNode extends CstNode {
  name: "spec";
  children: SpecCstChildren;
}

export type SpecCstChildren = {
  declaration?: DeclarationCstNode[];
};

export interface DeclarationCstNode extends CstNode {
  name: "declaration";
  children: DeclarationCstChildren;
}

export type DeclarationCstChildren = {
  corpusDecl?: CorpusDeclCstNode[];
  poolDecl?: PoolDeclCstNode[];
  fieldDecl?: FieldDeclCstNode[];
  editDecl?: EditDeclCstNode[];
  signalDecl?: SignalDeclCstNode[];
  detectorDecl?: DetectorDeclCstNode[];
  rewardDecl?: RewardDeclCstNode[];
  auditDecl?: AuditDeclCstNode[];
  trainingDecl?: TrainingDeclCstNode[];
  comparisonDecl?: ComparisonDeclCstNode[];
};

export interface CorpusDeclCstNode extends CstNode {
  name: "corpusDecl";
  children: CorpusDeclCstChildren;
}

export type CorpusDeclCstChildren = {
  Corpus: IToken[];
  Identifier: IToken[];
  Equals: IToken[];
  StringLiteral: IToken[];
};

export interface PoolDeclCstNode extends CstNode {
  name: "poolDecl";
  children: PoolDeclCstChildren;
}

export type PoolDeclCstChildren = {
  Pool: IToken[];
  Identifier: IToken[];
  Equals: IToken[];
  StringLiteral: IToken[];
  importClause?: ImportClauseCstNode[];
};

export interface ImportClauseCstNode extends CstNode {
  name: "importClause";
  children: ImportClauseCstChildren;
}

export type ImportClauseCstChildren = {
  from: IToken[];
  format: IToken[];
  LParen?: IToken[];
  importOption?: ImportOptionCstNode[];
  Comma?: IToken[];
  RParen?: IToken[];
};

export interface ImportOptionCstNode extends CstNode {
  name: "importOption";
  children: ImportOptionCstChildren;
}

export type ImportOptionCstChildren = {
  key: IToken[];
  Colon: IToken[];
  word?: (IToken)[];
  StringLiteral?: IToken[];
  NumberLiteral?: IToken[];
};

export interface FieldDeclCstNode extends CstNode {
  name: "fieldDecl";
  children: FieldDeclCstChildren;
}

export type FieldDeclCstChildren = {
  modifier?: IToken[];
  Field: IToken[];
  name: IToken[];
  StringLiteral?: IToken[];
  Colon: IToken[];
  fieldType: IToken[];
  Equals: IToken[];
  commandSource?: CommandSourceCstNode[];
  path?: IToken[];
  Dot?: IToken[];
  dependsClause?: DependsClauseCstNode[];
};

export interface CommandSourceCstNode extends CstNode {
  name: "commandSource";
  children: CommandSourceCstChildren;
}

export type CommandSourceCstChildren = {
  word: IToken[];
  program: IToken[];
};

export interface DependsClauseCstNode extends CstNode {
  name: "dependsClause";
  children: DependsClauseCstChildren;
}

export type DependsClauseCstChildren = {
  depends: IToken[];
  on: IToken[];
  part: IToken[];
  Comma?: IToken[];
};

export interface SignalDeclCstNode extends CstNode {
  name: "signalDecl";
  children: SignalDeclCstChildren;
}

export type SignalDeclCstChildren = {
  Signal: IToken[];
  Identifier: IToken[];
  StringLiteral?: IToken[];
  Equals: IToken[];
  expression: ExpressionCstNode[];
};

export interface DetectorDeclCstNode extends CstNode {
  name: "detectorDecl";
  children: DetectorDeclCstChildren;
}

export type DetectorDeclCstChildren = {
  Detector: IToken[];
  Identifier: IToken[];
  StringLiteral?: IToken[];
  Equals: IToken[];
  expression: ExpressionCstNode[];
};

export interface RewardDeclCstNode extends CstNode {
  name: "rewardDecl";
  children: RewardDeclCstChildren;
}

export type RewardDeclCstChildren = {
  Reward: IToken[];
  Identifier: IToken[];
  StringLiteral?: IToken[];
  LBrace?: IToken[];
  term?: TermCstNode[];
  RBrace?: IToken[];
  Equals?: IToken[];
  commandSource?: CommandSourceCstNode[];
  base?: IToken[];
  derivedTerm?: DerivedTermCstNode[];
};

export interface TermCstNode extends CstNode {
  name: "term";
  children: TermCstChildren;
}

export type TermCstChildren = {
  Identifier: IToken[];
  signedNumber: SignedNumberCstNode[];
  Star: IToken[];
  expression: ExpressionCstNode[];
};

export interface DerivedTermCstNode extends CstNode {
  name: "derivedTerm";
  children: DerivedTermCstChildren;
}

export type DerivedTermCstChildren = {
  Plus?: IToken[];
  Minus?: IToken[];
  NumberLiteral: IToken[];
  Star: IToken[];
  postfixExpression: PostfixExpressionCstNode[];
};

export interface AuditDeclCstNode extends CstNode {
  name: "auditDecl";
  children: AuditDeclCstChildren;
}

export type AuditDeclCstChildren = {
  Audit: IToken[];
  Identifier: IToken[];
  StringLiteral?: IToken[];
  LBrace: IToken[];
  blockItem?: BlockItemCstNode[];
  RBrace: IToken[];
};

export interface TrainingDeclCstNode extends CstNode {
  name: "trainingDecl";
  children: TrainingDeclCstChildren;
}

export type TrainingDeclCstChildren = {
  Training: IToken[];
  Identifier: IToken[];
  StringLiteral?: IToken[];
  LBrace: IToken[];
  blockItem?: BlockItemCstNode[];
  RBrace: IToken[];
};

export interface ComparisonDeclCstNode extends CstNode {
  name: "comparisonDecl";
  children: ComparisonDeclCstChildren;
}

export type ComparisonDeclCstChildren = {
  Comparison: IToken[];
  Identifier: IToken[];
  StringLiteral?: IToken[];
  LBrace: IToken[];
  blockItem?: BlockItemCstNode[];
  RBrace: IToken[];
};

export interface BlockItemCstNode extends CstNode {
  name: "blockItem";
  children: BlockItemCstChildren;
}

export type BlockItemCstChildren = {
  auditItem?: AuditItemCstNode[];
  optionItem?: OptionItemCstNode[];
};

export interface OptionItemCstNode extends CstNode {
  name: "optionItem";
  children: OptionItemCstChildren;
}

export type OptionItemCstChildren = {
  key: IToken[];
  optionValue: OptionValueCstNode[];
  Comma?: IToken[];
};

export interface OptionValueCstNode extends CstNode {
  name: "optionValue";
  children: OptionValueCstChildren;
}

export type OptionValueCstChildren = {
  Identifier?: IToken[];
  LParen?: IToken[];
  argument?: IToken[];
  RParen?: IToken[];
  All?: IToken[];
  signedNumber?: SignedNumberCstNode[];
  Percent?: IToken[];
};

export interface AuditItemCstNode extends CstNode {
  name: "auditItem";
  children: AuditItemCstChildren;
}

export type AuditItemCstChildren = {
  auditReward?: AuditRewardCstNode[];
  auditCompare?: AuditCompareCstNode[];
  auditCorpus?: AuditCorpusCstNode[];
  auditPools?: AuditPoolsCstNode[];
  attackItem?: AttackItemCstNode[];
  latticeItem?: LatticeItemCstNode[];
  expectItem?: ExpectItemCstNode[];
  conformsItem?: ConformsItemCstNode[];
  settingItem?: SettingItemCstNode[];
};

export interface ConformsItemCstNode extends CstNode {
  name: "conformsItem";
  children: ConformsItemCstChildren;
}

export type ConformsItemCstChildren = {
  Conforms: IToken[];
  subject: IToken[];
  to: IToken[];
  reference: IToken[];
  within?: IToken[];
  tolerance?: SignedNumberCstNode[];
};

export interface AuditRewardCstNode extends CstNode {
  name: "auditReward";
  children: AuditRewardCstChildren;
}

export type AuditRewardCstChildren = {
  Reward: IToken[];
  Identifier: IToken[];
};

export interface AuditCompareCstNode extends CstNode {
  name: "auditCompare";
  children: AuditCompareCstChildren;
}

export type AuditCompareCstChildren = {
  Compare: IToken[];
  nameList: NameListCstNode[];
};

export interface AuditCorpusCstNode extends CstNode {
  name: "auditCorpus";
  children: AuditCorpusCstChildren;
}

export type AuditCorpusCstChildren = {
  Corpus: IToken[];
  Identifier: IToken[];
};

export interface AuditPoolsCstNode extends CstNode {
  name: "auditPools";
  children: AuditPoolsCstChildren;
}

export type AuditPoolsCstChildren = {
  Pools: IToken[];
  nameList: NameListCstNode[];
};

export interface NameListCstNode extends CstNode {
  name: "nameList";
  children: NameListCstChildren;
}

export type NameListCstChildren = {
  Identifier: IToken[];
  Comma?: IToken[];
};

export interface AttackItemCstNode extends CstNode {
  name: "attackItem";
  children: AttackItemCstChildren;
}

export type AttackItemCstChildren = {
  Attack: IToken[];
  name: IToken[];
  Equals?: IToken[];
  attackKind?: IToken[];
  Targets?: IToken[];
  nameList?: NameListCstNode[];
  Using?: IToken[];
  generator?: GeneratorCstNode[];
  Comma?: IToken[];
};

export interface GeneratorCstNode extends CstNode {
  name: "generator";
  children: GeneratorCstChildren;
}

export type GeneratorCstChildren = {
  Identifier?: IToken[];
  LParen?: IToken[];
  NumberLiteral?: IToken[];
  RParen?: IToken[];
  Candidates?: IToken[];
  source?: IToken[];
  StringLiteral?: IToken[];
};

export interface LatticeItemCstNode extends CstNode {
  name: "latticeItem";
  children: LatticeItemCstChildren;
}

export type LatticeItemCstChildren = {
  Lattice: IToken[];
  latticeEntry: LatticeEntryCstNode[];
  Comma?: IToken[];
};

export interface LatticeEntryCstNode extends CstNode {
  name: "latticeEntry";
  children: LatticeEntryCstChildren;
}

export type LatticeEntryCstChildren = {
  Identifier: IToken[];
  Equals: IToken[];
  signedNumber: SignedNumberCstNode[];
};

export interface ExpectItemCstNode extends CstNode {
  name: "expectItem";
  children: ExpectItemCstChildren;
}

export type ExpectItemCstChildren = {
  Expect: IToken[];
  metric: IToken[];
  LParen?: IToken[];
  args?: NameListCstNode[];
  RParen?: IToken[];
  comparisonOperator: ComparisonOperatorCstNode[];
  signedNumber?: SignedNumberCstNode[];
  Percent?: IToken[];
  LBrace?: IToken[];
  set?: NameListCstNode[];
  RBrace?: IToken[];
};

export interface SettingItemCstNode extends CstNode {
  name: "settingItem";
  children: SettingItemCstChildren;
}

export type SettingItemCstChildren = {
  setting?: (IToken)[];
  NumberLiteral: IToken[];
  Comma?: IToken[];
};

export interface RewardCstVisitor<IN, OUT> extends ICstVisitor<IN, OUT> {
  signedNumber(children: SignedNumberCstChildren, param?: IN): OUT;
  comparisonOperator(children: ComparisonOperatorCstChildren, param?: IN): OUT;
  expression(children: ExpressionCstChildren, param?: IN): OUT;
  prefixedOperand(children: PrefixedOperandCstChildren, param?: IN): OUT;
  binaryOperator(children: BinaryOperatorCstChildren, param?: IN): OUT;
  unary(children: UnaryCstChildren, param?: IN): OUT;
  postfixExpression(children: PostfixExpressionCstChildren, param?: IN): OUT;
  primary(children: PrimaryCstChildren, param?: IN): OUT;
  quantifier(children: QuantifierCstChildren, param?: IN): OUT;
  aggregate(children: AggregateCstChildren, param?: IN): OUT;
  filter(children: FilterCstChildren, param?: IN): OUT;
  conditional(children: ConditionalCstChildren, param?: IN): OUT;
  countCall(children: CountCallCstChildren, param?: IN): OUT;
  callOrName(children: CallOrNameCstChildren, param?: IN): OUT;
  argumentList(children: ArgumentListCstChildren, param?: IN): OUT;
  parenthesized(children: ParenthesizedCstChildren, param?: IN): OUT;
  editDecl(children: EditDeclCstChildren, param?: IN): OUT;
  editOp(children: EditOpCstChildren, param?: IN): OUT;
  editBinder(children: EditBinderCstChildren, param?: IN): OUT;
  editSource(children: EditSourceCstChildren, param?: IN): OUT;
  spec(children: SpecCstChildren, param?: IN): OUT;
  declaration(children: DeclarationCstChildren, param?: IN): OUT;
  corpusDecl(children: CorpusDeclCstChildren, param?: IN): OUT;
  poolDecl(children: PoolDeclCstChildren, param?: IN): OUT;
  importClause(children: ImportClauseCstChildren, param?: IN): OUT;
  importOption(children: ImportOptionCstChildren, param?: IN): OUT;
  fieldDecl(children: FieldDeclCstChildren, param?: IN): OUT;
  commandSource(children: CommandSourceCstChildren, param?: IN): OUT;
  dependsClause(children: DependsClauseCstChildren, param?: IN): OUT;
  signalDecl(children: SignalDeclCstChildren, param?: IN): OUT;
  detectorDecl(children: DetectorDeclCstChildren, param?: IN): OUT;
  rewardDecl(children: RewardDeclCstChildren, param?: IN): OUT;
  term(children: TermCstChildren, param?: IN): OUT;
  derivedTerm(children: DerivedTermCstChildren, param?: IN): OUT;
  auditDecl(children: AuditDeclCstChildren, param?: IN): OUT;
  trainingDecl(children: TrainingDeclCstChildren, param?: IN): OUT;
  comparisonDecl(children: ComparisonDeclCstChildren, param?: IN): OUT;
  blockItem(children: BlockItemCstChildren, param?: IN): OUT;
  optionItem(children: OptionItemCstChildren, param?: IN): OUT;
  optionValue(children: OptionValueCstChildren, param?: IN): OUT;
  auditItem(children: AuditItemCstChildren, param?: IN): OUT;
  conformsItem(children: ConformsItemCstChildren, param?: IN): OUT;
  auditReward(children: AuditRewardCstChildren, param?: IN): OUT;
  auditCompare(children: AuditCompareCstChildren, param?: IN): OUT;
  auditCorpus(children: AuditCorpusCstChildren, param?: IN): OUT;
  auditPools(children: AuditPoolsCstChildren, param?: IN): OUT;
  nameList(children: NameListCstChildren, param?: IN): OUT;
  attackItem(children: AttackItemCstChildren, param?: IN): OUT;
  generator(children: GeneratorCstChildren, param?: IN): OUT;
  latticeItem(children: LatticeItemCstChildren, param?: IN): OUT;
  latticeEntry(children: LatticeEntryCstChildren, param?: IN): OUT;
  expectItem(children: ExpectItemCstChildren, param?: IN): OUT;
  settingItem(children: SettingItemCstChildren, param?: IN): OUT;
}
