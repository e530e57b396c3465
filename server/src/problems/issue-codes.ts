/**
 * Every diagnostic's stable code. Codes are part of the product's interface: quick fixes switch on
 * them, CI filters on them, and they are SARIF's rule ids. Add codes, never rename or reuse one.
 */
export const issueCodes = {
  // syntax
  lexError: 'lex-error',
  unterminatedString: 'unterminated-string',
  nonFiniteNumber: 'non-finite-number',
  parseError: 'parse-error',
  // names
  unknownName: 'unknown-name',
  duplicateName: 'duplicate-name',
  kindMismatch: 'kind-mismatch',
  recursiveDefinition: 'recursive-definition',
  unusedDeclaration: 'unused-declaration',
  nonFiniteWeight: 'non-finite-weight',
  // types and visibility
  typeMismatch: 'type-mismatch',
  badPattern: 'bad-pattern',
  badField: 'bad-field',
  wrongArity: 'wrong-arity',
  unknownMember: 'unknown-member',
  oracleDetector: 'oracle-detector',
  missingDescription: 'missing-description',
  penaltySign: 'penalty-sign',
  // linked files
  missingFile: 'missing-file',
  unreadableFile: 'unreadable-file',
  untrustedFile: 'untrusted-file',
  unknownImporter: 'unknown-importer',
  badImportOption: 'bad-import-option',
  // audits
  incompleteAudit: 'incomplete-audit',
  repeatedAuditItem: 'repeated-audit-item',
  unknownAttackKind: 'unknown-attack-kind',
  unknownGenerator: 'unknown-generator',
  generatorNotAllowed: 'generator-not-allowed',
  missingGenerator: 'missing-generator',
  invalidBudget: 'invalid-budget',
  unknownMetric: 'unknown-metric',
  unknownSelection: 'unknown-selection',
  rewardNotAudited: 'reward-not-audited',
  invalidSetting: 'invalid-setting',
  valueOutOfRange: 'value-out-of-range',
  // training and comparison blocks
  unknownOption: 'unknown-option',
  unknownPoolSelection: 'unknown-pool-selection',
  misplacedItem: 'misplaced-item',
  // limits
  specTooLarge: 'spec-too-large',
  nestingTooDeep: 'nesting-too-deep',
  latticeTooLarge: 'lattice-too-large',
  settingTooLarge: 'setting-too-large',
} as const;

/** Codes of what an audit finds (on save, or from `herald audit`), placed on the spec where a user acts. */
export const auditIssueCodes = {
  expectFailed: 'expect-failed',
  attackSucceeds: 'attack-succeeds',
  penaltyCancellation: 'penalty-cancellation',
  redundantDetector: 'redundant-detector',
  certificateFails: 'certificate-fails',
  smallSample: 'small-sample',
  badRows: 'bad-rows',
  auditFailed: 'audit-failed',
  asrRegression: 'asr-regression',
  baselineUnreadable: 'baseline-unreadable',
  sparseTrainingSignal: 'sparse-training-signal',
  // issue 14
  nonInferiorityFails: 'non-inferiority-fails',
  // issue 19
  comparisonUnmatched: 'comparison-unmatched',
  claimUnderpowered: 'claim-underpowered',
  // issue 15
  unresolvedIds: 'unresolved-ids',
  poolImported: 'pool-imported',
} as const;

export type IssueCode = (typeof issueCodes)[keyof typeof issueCodes] | (typeof auditIssueCodes)[keyof typeof auditIssueCodes];

/** One line per code, shown as the diagnostic's documentation (codeDescription) and in SARIF rules. */
export const issueCodeDocs: Record<IssueCode, string> = {
  'lex-error': 'A character that no token of the language starts with.',
  'unterminated-string': 'A string literal without its closing quote on the same line.',
  'parse-error': 'The text does not follow the grammar at this point.',
  'non-finite-number': 'A number literal too large for a double (1e309): it would be Infinity, and the margins it enters NaN.',
  'non-finite-weight': "A reward's weights, or a lattice penalty scaled by the sweep, add up to more than a double holds (1e308 twice): the figures would be Infinity or NaN.",
  'unknown-name': 'A name that is neither declared in the spec nor built in.',
  'duplicate-name': 'Two declarations (or two attacks of one audit) share a name.',
  'kind-mismatch': 'A declared name of the wrong kind here (a pool where a reward is expected, ...).',
  'recursive-definition': 'A signal, detector or reward that depends on itself.',
  'unused-declaration': 'A corpus, pool, signal or detector that nothing uses.',
  'type-mismatch': 'An expression of the wrong type for where it stands.',
  'bad-field': 'A declared logged field whose type is not number, boolean, text, texts or ids, or whose path is not under the row\'s `meta` (`field judge : number = meta.judge.score`).',
  'bad-pattern': 'The pattern of `matches` is not a string literal, is not valid RE2 syntax, compiles to more than 1,000 instructions, or writes an escape such as `\\d` that a spec string reads as a plain `d` (write `\\\\d`).',
  'wrong-arity': 'A built-in function called with the wrong number of arguments.',
  'unknown-member': 'A field that the value does not have (`.query` on an id, ...).',
  'oracle-detector': 'A detector reads an oracle field (gold); detectors must be visible.',
  'missing-description': 'A detector without a description string.',
  'penalty-sign': 'A penalty or weight whose sign contradicts what it is for.',
  'missing-file': 'A linked corpus, pool or candidate file does not exist, or a pool\'s glob (`"dumps/*.jsonl"`) matches no file.',
  'unreadable-file': 'A linked file exists but is not a regular file (a folder, FIFO, device or socket: never opened) or cannot be read (no permission).',
  'untrusted-file': 'In a workspace the user has not trusted, a linked file outside its folders is neither read nor audited.',
  'unknown-importer': 'A pool linked `from FORMAT` names a format no importer reads (the message lists the formats; `herald import --help` too).',
  'bad-import-option': 'An option of a pool\'s `from FORMAT(...)` that the importer does not take, is given twice, or has a value the importer refuses.',
  'incomplete-audit': 'An audit lacks its reward, corpus, pools or attacks; or a training or comparison block lacks an item it needs (its reward, corpus, training log, or base and treatment logs).',
  'repeated-audit-item': 'An audit states the same single-valued item twice.',
  'unknown-attack-kind': 'An attack kind other than same_final, fake_id or launder.',
  'unknown-generator': 'A candidate generator other than lexical, bm25 or candidates.',
  'generator-not-allowed': 'Generators given to an attack that takes none.',
  'missing-generator': 'A launder attack without a candidate generator.',
  'invalid-budget': 'A generator budget that is not a positive whole number.',
  'unknown-metric': 'An expect line with a metric other than asr, upper, mean_margin, worst_margin or minimal_repair.',
  'unknown-selection': 'An expect line with a selection other than first_visible or oracle_worst.',
  'reward-not-audited': 'An expect line, or a `best(R)` pool selection, names a reward that its audit neither audits nor compares.',
  'invalid-setting': 'A seed, bootstrap or sweep value that cannot be used.',
  'value-out-of-range': 'A number outside the range that its place allows (a percentage above 100, ...).',
  'unknown-option': 'An option that a block does not have (audit: select, robustness, clusters; training: log, normalize, min_groups; comparison: base, treatment, detectors, margin, claim), or a value it does not take.',
  'unknown-pool-selection': 'A pool selection (`select`, `robustness`) other than stored, first, hash_random, all, best(REWARD) or gold_informed; or `best` without its reward, or another rule given one.',
  'misplaced-item': 'An audit item that means nothing in this block (an attack in a training block, a lattice or expect line in a comparison, ...).',
  'spec-too-large': 'A spec of more than 1,000,000 characters: it is neither parsed nor checked nor audited, so one problem at its start says so. Split it into smaller specs.',
  'nesting-too-deep': 'An expression nests more than 64 levels as written (parentheses, calls, operators, `not`, unary minus, member accesses, quantifiers, `if`s), or more than 256 with the signals, detectors and base rewards it uses counted in place. Name parts of it as signals.',
  'lattice-too-large': "An audit's lattice lists more than 12 detectors: all 2^k subsets are scored for every attack, so 13 would be 8,192 subsets.",
  'setting-too-large': 'A bootstrap of more than 10,000 resamples, or a sweep of more than 100 scales: the audit would run out of memory or time.',
  'expect-failed': "An audit's `expect` line does not hold on the linked pools.",
  'attack-succeeds': 'An audited attack keeps or raises the audited reward on some isolated-eligible edits (oracle-worst ASR above zero); the quick fix applies the observed minimal repair.',
  'penalty-cancellation': 'A larger reward loses to an attack that a smaller one rejects, because the edit switches off one of its penalties that was already active on the original (M_T = M_S + C_{T∖S}).',
  'redundant-detector': 'A lattice detector that no observed inclusion-minimal repair needs for the attacks that were run.',
  'certificate-fails': "A lattice penalty λ_d that does not exceed the largest base-reward gain among the audited edits that trigger d: R − λ_d·d does not reject every one of them (the finite-set certificate fails).",
  'small-sample': "Too few isolated-eligible question clusters (under 59) for an attack's rates to mean much: a zero only bounds the rate above 5%, and a nonzero rate's bootstrap interval over so few clusters is too narrow to trust.",
  'bad-rows': 'Rows of a linked pool, corpus or candidate file failed validation and were skipped.',
  'audit-failed': 'The audit could not run: a linked file could not be read.',
  'asr-regression': 'An attack success rate (or its upper bound) rose against the committed baseline (`<spec>.baseline.json`, written by `herald audit --update-baseline`).',
  'baseline-unreadable': 'The baseline file beside the spec is not valid JSON of the baseline shape, so regressions cannot be checked.',
  'sparse-training-signal': "A detector's penalty changes the group-normalised advantages (GRPO) in fewer training groups than the training block's `min_groups`: a detector that fires in all or none of a group's samples is cancelled by the group mean, so the optimizer barely sees it.",
  // issue 14
  'comparison-unmatched': "A comparison's arms are not matched: question ids only one arm evaluated, different or repeated samples (`meta.sample`) per question, or different logged token budgets (`meta.token_budget`); the figures pair only what matches.",
  'claim-underpowered': "A comparison's rate verdict blocks a reduction claim and the design cannot detect a reduction of the `claim`'s size (two-sided 5%, power 80%): the message gives the smallest detectable reduction and the questions the claim needs.",
  'non-inferiority-fails': "A comparison's pre-specified EM non-inferiority gate fails: on some benchmark the paired lower bound of treatment − base EM is not above −margin points (`herald compare` exits 1).",
  // issue 15
  'unresolved-ids': "Results or citation markers of a pool named no corpus id and matched no single passage (by url, exact text or normalised title; a marker by its url or rank): unresolved results are left out of their step's ids, and a row with an unresolved citation is skipped (docs/pools.md, \"Resolving ids\").",
  'pool-imported': 'A pool that links a foreign log (`from FORMAT(...)`) was imported on load: how many records were read, imported and skipped, and what the importer derived (question ids, groups).',
};
