import { ExpressionGrammar } from './expression-grammar.js';
import * as T from './tokens.js';

/**
 * The grammar of `edit` declarations (docs/language.md, "Edits"), between the expression grammar
 * and the spec's: RewardParser extends it. Grammar only, like the rest; build-ast.ts reads the tree.
 */
export abstract class EditGrammar extends ExpressionGrammar {
  // `edit launder "doc" when has_final = replace each c in citations with generated`: an attack's
  // exact edit. Its words (`when`, the verbs, `each`, `where`, `with`, `to`) are names read by
  // position, not reserved keywords; which verb takes which clause is the checker's business.
  protected editDecl = this.RULE('editDecl', () => {
    this.CONSUME(T.Identifier, { LABEL: 'keyword' });
    this.CONSUME2(T.Identifier, { LABEL: 'name' });
    this.OPTION(() => this.CONSUME(T.StringLiteral));
    this.OPTION2({
      GATE: () => this.LA(1).image === 'when',
      DEF: () => {
        this.CONSUME3(T.Identifier, { LABEL: 'when' });
        this.SUBRULE(this.expression, { LABEL: 'guard' });
      },
    });
    this.CONSUME(T.Equals);
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.editOp) });
  });

  private editOp = this.RULE('editOp', () => {
    this.CONSUME(T.Identifier, { LABEL: 'verb' });
    this.OR([
      {
        // `set answer = EXPR`
        ALT: () => {
          this.CONSUME2(T.Identifier, { LABEL: 'field' });
          this.CONSUME(T.Equals);
          this.SUBRULE(this.expression, { LABEL: 'value' });
        },
      },
      {
        // `delete all s in steps where …`, `replace each c in citations with …`, `append all x in retrieved to citations`
        ALT: () => {
          this.SUBRULE(this.editBinder);
          this.OPTION({
            GATE: () => this.LA(1).image === 'with',
            DEF: () => {
              this.CONSUME3(T.Identifier, { LABEL: 'with' });
              this.SUBRULE(this.editSource);
            },
          });
          this.OPTION2({
            GATE: () => this.LA(1).image === 'to',
            DEF: () => {
              this.CONSUME4(T.Identifier, { LABEL: 'to' });
              this.CONSUME5(T.Identifier, { LABEL: 'destination' });
            },
          });
        },
      },
    ]);
  });

  private editBinder = this.RULE('editBinder', () => {
    this.OR([{ ALT: () => this.CONSUME(T.All, { LABEL: 'mode' }) }, { ALT: () => this.CONSUME(T.Identifier, { LABEL: 'mode' }) }]);
    this.CONSUME2(T.Identifier, { LABEL: 'variable' });
    this.CONSUME(T.In);
    this.SUBRULE(this.expression, { LABEL: 'collection' });
    this.OPTION({
      GATE: () => this.LA(1).image === 'where',
      DEF: () => {
        this.CONSUME3(T.Identifier, { LABEL: 'where' });
        this.SUBRULE2(this.expression, { LABEL: 'condition' });
      },
    });
  });

  // `generated`, `fake_id`, `other_ranks`, or `x in EXPR where …`.
  private editSource = this.RULE('editSource', () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Identifier, { LABEL: 'variable' });
          this.CONSUME(T.In);
          this.SUBRULE(this.expression, { LABEL: 'collection' });
          this.OPTION({
            GATE: () => this.LA(1).image === 'where',
            DEF: () => {
              this.CONSUME2(T.Identifier, { LABEL: 'where' });
              this.SUBRULE2(this.expression, { LABEL: 'condition' });
            },
          });
        },
      },
      { ALT: () => this.CONSUME3(T.Identifier, { LABEL: 'word' }) },
    ]);
  });
}
