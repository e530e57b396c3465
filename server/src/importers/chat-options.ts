// The options every chat-message importer takes (`search_tools`, `answer`, `citations`), with
// their documentation, so `herald import --help` and docs/import.md say the same thing.
import { z } from 'zod';
import { answerRuleDocs, answerRules, citationRules } from './chat-final.js';
import type { AnswerRule, CitationRule } from './chat-final.js';
import type { ChatRules } from './chat-trajectory.js';
import type { OptionValue } from './importer.js';

/** Tool names that search a corpus in the frameworks' own examples (rllm, ART, Search-R1 tool agents, BrowseComp-Plus). */
export const defaultSearchTools = 'search,local_search,retrieve,web_search,wiki_search';

/** A comma-separated option value as a list (spaces around names ignored, empty names dropped). */
export function listOption(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

export function chatOptionShape(defaults: { readonly answer: AnswerRule; readonly citations: CitationRule }) {
  return {
    search_tools: z.string().default(defaultSearchTools),
    answer: z.enum(answerRules).default(defaults.answer),
    citations: z.enum(citationRules).default(defaults.citations),
  };
}

export function chatRules(options: { readonly search_tools: string; readonly answer: AnswerRule; readonly citations: CitationRule }): ChatRules {
  return { searchTools: new Set(listOption(options.search_tools)), answer: options.answer, citations: options.citations };
}

export function chatOptionDocs(defaults: { readonly answer: AnswerRule; readonly citations: CitationRule }): Readonly<Record<string, string>> {
  const rules = answerRules.map((r) => `\`${r}\`: ${answerRuleDocs[r]}`).join('; ');
  return {
    search_tools: `comma-separated tool names whose calls are \`search\` steps (query: \`args.query\`, or one step per \`args.query_list\` item); any other call is a \`tool\` step. Default \`${defaultSearchTools}\``,
    answer: `where the final answer is in the last assistant message: ${rules}. Default \`${defaults.answer}\``,
    citations: `what the citation markers of the final text name (\`[20]\`, \`[[20]]\`, \`【20】\`; \`[20, 21]\` is two; a markdown link \`[x](url)\` is none; docs/import.md, "Citation markers"): \`docid\` (corpus ids, each with a digit), \`rank\` (result ranks, resolved through the last step with results), \`none\` (not citations). Default \`${defaults.citations}\``,
  };
}

const citationRuleDocs: Readonly<Record<CitationRule, string>> = {
  docid: 'a marker names corpus ids, each with a digit (`[20, 21]` is two; `[sic]` is prose)',
  rank: 'a marker names result ranks (digits only), resolved through the last step with results',
  none: 'markers are not citations',
};

/** The closed lists among the chat options (`answer`, `citations`), for completion after `name:`. */
export const chatOptionValues: Readonly<Record<string, readonly OptionValue[]>> = {
  answer: answerRules.map((r) => ({ value: r, doc: answerRuleDocs[r] })),
  citations: citationRules.map((r) => ({ value: r, doc: citationRuleDocs[r] })),
};
