import { EditGrammar } from './edit-grammar.js';
import * as T from './tokens.js';

/**
 * The grammar of .reward specs. Grammar only: no semantics in actions, the CST visitor in
 * build-ast.ts turns the tree into the AST. Built once and reused through `parser.input`.
 */
export class RewardParser extends EditGrammar {
  constructor() {
    super();
    // After super(): this class's rules are defined by then, and the analysis needs them all.
    this.performSelfAnalysis();
  }

  public spec = this.RULE('spec', () => {
    this.MANY(() => this.SUBRULE(this.declaration));
  });

  private declaration = this.RULE('declaration', () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.corpusDecl) },
      { ALT: () => this.SUBRULE(this.poolDecl) },
      { ALT: () => this.SUBRULE(this.fieldDecl) },
      // `edit` is a word, not a reserved keyword (like `from`): a spec may still name a signal `edit`.
      { GATE: () => this.LA(1).image === 'edit', ALT: () => this.SUBRULE(this.editDecl) },
      { ALT: () => this.SUBRULE(this.signalDecl) },
      { ALT: () => this.SUBRULE(this.detectorDecl) },
      { ALT: () => this.SUBRULE(this.rewardDecl) },
      { ALT: () => this.SUBRULE(this.auditDecl) },
      { ALT: () => this.SUBRULE(this.trainingDecl) },
      { ALT: () => this.SUBRULE(this.comparisonDecl) },
    ]);
  });

  private corpusDecl = this.RULE('corpusDecl', () => {
    this.CONSUME(T.Corpus);
    this.CONSUME(T.Identifier);
    this.CONSUME(T.Equals);
    this.CONSUME(T.StringLiteral);
  });

  private poolDecl = this.RULE('poolDecl', () => {
    this.CONSUME(T.Pool);
    this.CONSUME(T.Identifier);
    this.CONSUME(T.Equals);
    this.CONSUME(T.StringLiteral);
    // `from` is a word, not a reserved keyword: only here, right after a pool's path, does it start
    // the clause, so a spec may still name a declaration `from`. (`oracle field …` after a pool
    // also starts with a name: the gate tells them apart.)
    this.OPTION({ GATE: () => this.LA(1).image === 'from', DEF: () => this.SUBRULE(this.importClause) });
  });

  // `from verl(dialect: search_r1, max_turns: 8)`; the list may be empty or left out.
  private importClause = this.RULE('importClause', () => {
    this.CONSUME(T.Identifier, { LABEL: 'from' });
    this.CONSUME2(T.Identifier, { LABEL: 'format' });
    this.OPTION(() => {
      this.CONSUME(T.LParen);
      this.MANY_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.importOption) });
      this.CONSUME(T.RParen);
    });
  });

  private importOption = this.RULE('importOption', () => {
    this.CONSUME(T.Identifier, { LABEL: 'key' });
    this.CONSUME(T.Colon);
    this.OR([
      { ALT: () => this.CONSUME2(T.Identifier, { LABEL: 'word' }) },
      { ALT: () => this.CONSUME(T.True, { LABEL: 'word' }) },
      { ALT: () => this.CONSUME(T.False, { LABEL: 'word' }) },
      { ALT: () => this.CONSUME(T.StringLiteral) },
      { ALT: () => this.CONSUME(T.NumberLiteral) },
    ]);
  });

  // `oracle field judge "doc" : number = meta.judge.score`: a value logged with each row.
  private fieldDecl = this.RULE('fieldDecl', () => {
    // `oracle` is read as a name and checked there, so it stays free to name a declaration.
    this.OPTION(() => this.CONSUME4(T.Identifier, { LABEL: 'modifier' }));
    this.CONSUME(T.Field);
    this.CONSUME(T.Identifier, { LABEL: 'name' });
    this.OPTION2(() => this.CONSUME(T.StringLiteral));
    this.CONSUME(T.Colon);
    this.CONSUME2(T.Identifier, { LABEL: 'fieldType' });
    this.CONSUME(T.Equals);
    this.OR([
      // `command "PROGRAM"`: a value the user's program computes (docs/reward-commands.md).
      { ALT: () => this.SUBRULE(this.commandSource) },
      // A key of the row's meta is the log's, not the spec's: it may be spelled like a keyword (`meta.reward`).
      { ALT: () => this.AT_LEAST_ONE_SEP({ SEP: T.Dot, DEF: () => this.CONSUME3(T.Word, { LABEL: 'path' }) }) },
    ]);
    // `depends` is a word, not a reserved keyword: only here, right after the path, does it start the clause.
    this.OPTION3({ GATE: () => this.LA(1).image === 'depends', DEF: () => this.SUBRULE(this.dependsClause) });
  });

  // `command "python3 judge.py"`: `command` is a word (checked), so it stays free to name a declaration.
  private commandSource = this.RULE('commandSource', () => {
    this.CONSUME(T.Identifier, { LABEL: 'word' });
    this.CONSUME(T.StringLiteral, { LABEL: 'program' });
  });

  // `depends on answer, citations`: the parts of the trajectory a logged value is computed from.
  private dependsClause = this.RULE('dependsClause', () => {
    this.CONSUME(T.Identifier, { LABEL: 'depends' });
    this.CONSUME2(T.Identifier, { LABEL: 'on' });
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => this.CONSUME3(T.Identifier, { LABEL: 'part' }) });
  });

  private signalDecl = this.RULE('signalDecl', () => {
    this.CONSUME(T.Signal);
    this.CONSUME(T.Identifier);
    this.OPTION(() => this.CONSUME(T.StringLiteral));
    this.CONSUME(T.Equals);
    this.SUBRULE(this.expression);
  });

  private detectorDecl = this.RULE('detectorDecl', () => {
    this.CONSUME(T.Detector);
    this.CONSUME(T.Identifier);
    this.OPTION(() => this.CONSUME(T.StringLiteral));
    this.CONSUME(T.Equals);
    this.SUBRULE(this.expression);
  });

  private rewardDecl = this.RULE('rewardDecl', () => {
    this.CONSUME(T.Reward);
    this.CONSUME(T.Identifier);
    this.OPTION(() => this.CONSUME(T.StringLiteral));
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.LBrace);
          this.MANY(() => this.SUBRULE(this.term));
          this.CONSUME(T.RBrace);
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Equals);
          this.OR2([
            { ALT: () => this.SUBRULE(this.commandSource) },
            {
              ALT: () => {
                this.CONSUME2(T.Identifier, { LABEL: 'base' });
                this.MANY2(() => this.SUBRULE(this.derivedTerm));
              },
            },
          ]);
        },
      },
    ]);
  });

  private term = this.RULE('term', () => {
    this.CONSUME(T.Identifier);
    this.SUBRULE(this.signedNumber);
    this.CONSUME(T.Star);
    this.SUBRULE(this.expression);
  });

  private derivedTerm = this.RULE('derivedTerm', () => {
    this.OR([{ ALT: () => this.CONSUME(T.Plus) }, { ALT: () => this.CONSUME(T.Minus) }]);
    this.CONSUME(T.NumberLiteral);
    this.CONSUME(T.Star);
    // A postfix operand, so `R0 - 1.2 * L - 0.8 * X` splits into two terms.
    this.SUBRULE(this.postfixExpression);
  });

  private auditDecl = this.RULE('auditDecl', () => {
    this.CONSUME(T.Audit);
    this.CONSUME(T.Identifier);
    this.OPTION(() => this.CONSUME(T.StringLiteral));
    this.CONSUME(T.LBrace);
    // An audit's options (`select first`, `robustness …`) are block options, as in training blocks.
    this.MANY(() => this.SUBRULE(this.blockItem));
    this.CONSUME(T.RBrace);
  });

  // The training-signal and policy-comparison blocks share the audit's items and add `key value, …`
  // options; which items and keys a block accepts is the checker's business, not the grammar's.
  private trainingDecl = this.RULE('trainingDecl', () => {
    this.CONSUME(T.Training);
    this.CONSUME(T.Identifier);
    this.OPTION(() => this.CONSUME(T.StringLiteral));
    this.CONSUME(T.LBrace);
    this.MANY(() => this.SUBRULE(this.blockItem));
    this.CONSUME(T.RBrace);
  });

  private comparisonDecl = this.RULE('comparisonDecl', () => {
    this.CONSUME(T.Comparison);
    this.CONSUME(T.Identifier);
    this.OPTION(() => this.CONSUME(T.StringLiteral));
    this.CONSUME(T.LBrace);
    this.MANY(() => this.SUBRULE(this.blockItem));
    this.CONSUME(T.RBrace);
  });

  private blockItem = this.RULE('blockItem', () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.auditItem) },
      { ALT: () => this.SUBRULE(this.optionItem) },
    ]);
  });

  private optionItem = this.RULE('optionItem', () => {
    this.CONSUME(T.Identifier, { LABEL: 'key' });
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.optionValue) });
  });

  private optionValue = this.RULE('optionValue', () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Identifier);
          // A word with one argument: `best(R0)`.
          this.OPTION2(() => {
            this.CONSUME(T.LParen);
            this.CONSUME2(T.Identifier, { LABEL: 'argument' });
            this.CONSUME(T.RParen);
          });
        },
      },
      // `all` is a keyword (a quantifier), and also a selection rule's name.
      { ALT: () => this.CONSUME(T.All) },
      {
        ALT: () => {
          this.SUBRULE(this.signedNumber);
          this.OPTION(() => this.CONSUME(T.Percent));
        },
      },
    ]);
  });

  private auditItem = this.RULE('auditItem', () => {
    this.OR([
      { ALT: () => this.SUBRULE(this.auditReward) },
      { ALT: () => this.SUBRULE(this.auditCompare) },
      { ALT: () => this.SUBRULE(this.auditCorpus) },
      { ALT: () => this.SUBRULE(this.auditPools) },
      { ALT: () => this.SUBRULE(this.attackItem) },
      { ALT: () => this.SUBRULE(this.latticeItem) },
      { ALT: () => this.SUBRULE(this.expectItem) },
      { ALT: () => this.SUBRULE(this.conformsItem) },
      { ALT: () => this.SUBRULE(this.settingItem) },
    ]);
  });

  // `conforms trained to logged_score within 1e-6`: `to` and `within` are words, checked there.
  private conformsItem = this.RULE('conformsItem', () => {
    this.CONSUME(T.Conforms);
    this.CONSUME(T.Identifier, { LABEL: 'subject' });
    this.CONSUME2(T.Identifier, { LABEL: 'to' });
    this.CONSUME3(T.Identifier, { LABEL: 'reference' });
    this.OPTION(() => {
      this.CONSUME4(T.Identifier, { LABEL: 'within' });
      this.SUBRULE(this.signedNumber, { LABEL: 'tolerance' });
    });
  });

  private auditReward = this.RULE('auditReward', () => {
    this.CONSUME(T.Reward);
    this.CONSUME(T.Identifier);
  });

  private auditCompare = this.RULE('auditCompare', () => {
    this.CONSUME(T.Compare);
    this.SUBRULE(this.nameList);
  });

  private auditCorpus = this.RULE('auditCorpus', () => {
    this.CONSUME(T.Corpus);
    this.CONSUME(T.Identifier);
  });

  private auditPools = this.RULE('auditPools', () => {
    this.CONSUME(T.Pools);
    this.SUBRULE(this.nameList);
  });

  private nameList = this.RULE('nameList', () => {
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => this.CONSUME(T.Identifier) });
  });

  private attackItem = this.RULE('attackItem', () => {
    this.CONSUME(T.Attack);
    this.CONSUME(T.Identifier, { LABEL: 'name' });
    this.OPTION(() => {
      this.CONSUME(T.Equals);
      this.CONSUME2(T.Identifier, { LABEL: 'attackKind' });
    });
    // No targets: every edit is eligible, and isolation keeps every audit detector (an edit that
    // should change no detector, such as an oracle unsupported-citation swap).
    this.OPTION3(() => {
      this.CONSUME(T.Targets);
      this.SUBRULE(this.nameList);
    });
    this.OPTION2(() => {
      this.CONSUME(T.Using);
      this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.generator) });
    });
  });

  private generator = this.RULE('generator', () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Identifier);
          this.CONSUME(T.LParen);
          this.CONSUME(T.NumberLiteral);
          this.CONSUME(T.RParen);
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Candidates);
          // `candidates command "…"`: a program that ranks candidates (docs/generators.md).
          this.OPTION(() => this.CONSUME2(T.Identifier, { LABEL: 'source' }));
          this.CONSUME(T.StringLiteral);
        },
      },
    ]);
  });

  private latticeItem = this.RULE('latticeItem', () => {
    this.CONSUME(T.Lattice);
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.latticeEntry) });
  });

  private latticeEntry = this.RULE('latticeEntry', () => {
    this.CONSUME(T.Identifier);
    this.CONSUME(T.Equals);
    this.SUBRULE(this.signedNumber);
  });

  private expectItem = this.RULE('expectItem', () => {
    this.CONSUME(T.Expect);
    this.CONSUME(T.Identifier, { LABEL: 'metric' });
    this.OPTION(() => {
      this.CONSUME(T.LParen);
      this.OPTION2(() => this.SUBRULE(this.nameList, { LABEL: 'args' }));
      this.CONSUME(T.RParen);
    });
    this.SUBRULE(this.comparisonOperator);
    this.OR([
      {
        ALT: () => {
          this.SUBRULE(this.signedNumber);
          this.OPTION3(() => this.CONSUME(T.Percent));
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.LBrace);
          this.OPTION4(() => this.SUBRULE2(this.nameList, { LABEL: 'set' }));
          this.CONSUME(T.RBrace);
        },
      },
    ]);
  });

  // One alternative per setting keyword of the vocabulary, each read as the `setting` child.
  private settingItem = this.RULE('settingItem', () => {
    this.OR(T.settingTokens.map((token) => ({ ALT: () => this.CONSUME(token, { LABEL: 'setting' }) })));
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => this.CONSUME(T.NumberLiteral) });
  });
}

/** The one parser instance: Chevrotain parsers are costly to build and meant to be reused. */
export const rewardParser = new RewardParser();
