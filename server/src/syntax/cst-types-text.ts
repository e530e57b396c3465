import { generateCstDts } from 'chevrotain';
import { rewardParser } from './parser.js';

const header = `// Generated from the grammar in parser.ts by \`npm run docs\` (scripts/write-cst-types.mjs, Chevrotain's
// generateCstDts): the children of every CST node, for build-ast.ts. Do not edit by hand; a test fails when it is stale.
// A node the recovering parser cut short may lack children these types call required: build-ast.ts reads them as Partial.

`;

/** The text of cst-types.d.ts: the CST node types of the grammar as it is now. */
export function renderCstTypes(): string {
  return header + generateCstDts(rewardParser.getGAstProductions(), { visitorInterfaceName: 'RewardCstVisitor' });
}
