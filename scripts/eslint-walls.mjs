// The stage walls as ESLint configuration, generated from the one table (scripts/stages.mjs): a rule
// that resolves every relative import of server/src and client/ to the stage it reaches and allows
// it only when the table does (deny by default), and the outside modules only some stages may use.
import * as path from 'node:path';
import { allowedImports, fileExceptions, outsideModules, stageOf, stageRoot, stages } from './stages.mjs';

const table = 'scripts/stages.mjs';

/** The folder or file name a message shows: `lsp/`, `version.ts`, `client/`. */
const shown = (s) => (/\.[a-z]+$/.test(s.path) ? s.path.slice(stageRoot.length + 1) : `${s.path.startsWith(`${stageRoot}/`) ? s.path.slice(stageRoot.length + 1) : s.path}/`);

/** The first folder (or file) under server/src of a repository path that no stage holds. */
const unknownFolder = (p) => p.slice(stageRoot.length + 1).split('/')[0];

/** Whether an import or export names types only (`import type`, or every name marked `type`). */
function typesOnly(node) {
  if (node.type === 'TSImportType') return true;
  const kind = node.type === 'ImportDeclaration' ? node.importKind : node.exportKind;
  if (kind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  const specifierKind = (s) => (node.type === 'ImportDeclaration' ? s.importKind : s.exportKind);
  return specifiers.length > 0 && specifiers.every((s) => specifierKind(s) === 'type');
}

const stageWalls = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports cross the stage walls only where scripts/stages.mjs allows.' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, required: ['root'], additionalProperties: false }],
  },
  create(context) {
    const root = context.options[0].root;
    const relative = (file) => path.relative(root, file).split(path.sep).join('/');
    const file = relative(context.filename);
    const own = stageOf(file);
    const inStages = file.startsWith(`${stageRoot}/`);
    if (own === undefined && !inStages) return {};
    const allowed = own === undefined ? [] : allowedImports(own);
    const from = own === undefined ? `${unknownFolder(file)}/` : shown(own);
    const allowedText = allowed.length === 0 ? 'no stage' : allowed.map((n) => shown(stages.find((s) => s.name === n))).join(', ');

    function check(node, source) {
      if (source === null || source === undefined || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = relative(path.resolve(path.dirname(context.filename), source.value));
      const reached = stageOf(target);
      if (reached === own && own !== undefined) return;
      if (reached === undefined) {
        if (!target.startsWith(`${stageRoot}/`)) return;
        context.report({ node, message: `${from} must not import ${unknownFolder(target)}/: it is not in the stage table (${table}); add it there with what it may import.` });
        return;
      }
      if (!allowed.includes(reached.name)) {
        context.report({ node, message: `${from} must not import ${shown(reached)}: it may import ${allowedText} (${table}, drawn in docs/architecture.md).` });
      } else if ((own.typesOnly ?? []).includes(reached.name) && !typesOnly(node)) {
        context.report({ node, message: `${from} may import ${shown(reached)} for types only: write \`import type\` (${table}).` });
      }
    }

    return {
      Program(node) {
        if (own === undefined) context.report({ node, message: `${stageRoot}/${unknownFolder(file)} is not in the stage table (${table}): add it there with what it may import.` });
      },
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : null),
      TSImportType: (node) => check(node, node.argument.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

/** The plugin that holds the rule, `herald/stage-walls`. */
export const wallsPlugin = { rules: { 'stage-walls': stageWalls } };

/** `no-restricted-imports` for code with the given capabilities: every other capability's modules are refused. */
function outsideRule(uses) {
  return {
    'no-restricted-imports': ['error', {
      paths: Object.entries(outsideModules)
        .filter(([capability]) => !uses.includes(capability))
        .flatMap(([, { modules, message }]) => modules.map((name) => ({ name, message }))),
    }],
  };
}

const globsOf = (s) => (/\.[a-z]+$/.test(s.path) ? [s.path] : [`${s.path}/**/*.ts`]);

/**
 * The flat-config entries of the walls, for the repository at `root`. A file of server/src that no
 * stage holds (a new folder) gets the wall rule's error and no capability; each stage then its own.
 */
export function wallConfigs(root) {
  return [
    {
      files: [`${stageRoot}/**/*.ts`, 'client/**/*.ts'],
      plugins: { herald: wallsPlugin },
      rules: { 'herald/stage-walls': ['error', { root }], ...outsideRule([]) },
    },
    ...stages.map((s) => ({ files: globsOf(s), rules: outsideRule(s.uses ?? []) })),
    ...fileExceptions.map((e) => ({ files: [e.path], rules: outsideRule([...(stageOf(e.path)?.uses ?? []), ...e.uses]) })),
  ];
}
