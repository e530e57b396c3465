import { commands, Uri, window, workspace, type ExtensionContext, type TextDocumentContentProvider } from 'vscode';
import { openWorkedPairCommand, pairEditTitle, workedPairRequest, type WorkedPairParams, type WorkedPairResult } from '../../server/src/contract/index';
import type { ServerSession } from './server-session';

// The attacked-trajectory view: `herald.openWorkedPair` asks the server to rebuild a worked pair
// (`herald/workedPair`) and opens VS Code's diff editor over two read-only documents of the
// `herald-trajectory` scheme: the original row and the edited row, pretty-printed JSON, the edited
// one headed by the per-term margin table. The code actions of findings, hover links and the report
// view run the command; it is the only command hovers may link to (client-options.ts).

export const trajectoryScheme = 'herald-trajectory';

type Side = 'original' | 'edited';

/** What a document URI of the scheme carries in its query: the pair, and which opening of it (so reopening asks again). */
interface Opening {
  readonly params: WorkedPairParams;
  readonly opening: number;
}

const isNullable = <T>(value: unknown, is: (v: unknown) => v is T): boolean => value === null || is(value);
const isString = (v: unknown): v is string => typeof v === 'string';
const isInteger = (v: unknown): v is number => Number.isInteger(v);

/** A command argument (from a hover link, a code action or the report view) that names a pair; undefined otherwise. */
export function pairParamsOf(value: unknown): WorkedPairParams | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v: Partial<Record<keyof WorkedPairParams, unknown>> = value;
  if (!isString(v.uri) || !isString(v.audit) || !isString(v.trajectory) || !isString(v.pool) || !isInteger(v.line) || !isString(v.attack)) return undefined;
  if (!isNullable(v.position, isInteger) || !isNullable(v.replacement, isString)) return undefined;
  const position = isInteger(v.position) ? v.position : null;
  const replacement = isString(v.replacement) ? v.replacement : null;
  const change = isString(v.change) ? { change: v.change } : {};
  return { uri: v.uri, audit: v.audit, trajectory: v.trajectory, pool: v.pool, line: v.line, attack: v.attack, position, replacement, ...change };
}

function documentUri(opening: Opening, side: Side): Uri {
  // The path names the tab; `.jsonc` gives both sides JSON-with-comments highlighting.
  const name = opening.params.trajectory.replace(/[^\w.@#-]+/g, '_');
  return Uri.from({ scheme: trajectoryScheme, path: `/${name}.${side}.jsonc`, query: JSON.stringify(opening) });
}

function openingOf(uri: Uri): Opening | undefined {
  try {
    const value: unknown = JSON.parse(uri.query);
    if (typeof value !== 'object' || value === null || !('params' in value) || !('opening' in value) || !isInteger(value.opening)) return undefined;
    const params = pairParamsOf(value.params);
    return params === undefined ? undefined : { params, opening: value.opening };
  } catch {
    return undefined;
  }
}

/** Serves both sides of each opened pair from one answer of the server. */
class TrajectoryDocuments implements TextDocumentContentProvider {
  /** Answers by opening, newest last; a few are kept for the sides VS Code asks for again. */
  private readonly answers = new Map<string, Promise<WorkedPairResult>>();
  private openings = 0;

  constructor(private readonly session: ServerSession) {}

  next(params: WorkedPairParams): Opening {
    return { params, opening: ++this.openings };
  }

  answer(opening: Opening): Promise<WorkedPairResult> {
    const key = JSON.stringify(opening);
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = this.ask(opening.params);
      this.answers.set(key, answer);
      for (const old of [...this.answers.keys()].slice(0, Math.max(0, this.answers.size - 8))) this.answers.delete(old);
    }
    return answer;
  }

  async provideTextDocumentContent(uri: Uri): Promise<string> {
    const opening = openingOf(uri);
    if (opening === undefined) return '// Not a HERALD worked pair.\n';
    const answer = await this.answer(opening);
    if (answer.kind === 'unavailable') return `// HERALD cannot show this worked pair: ${answer.reason}\n`;
    return uri.path.endsWith('.original.jsonc') ? answer.original : answer.edited;
  }

  private async ask(params: WorkedPairParams): Promise<WorkedPairResult> {
    const client = this.session.running;
    if (client === undefined) return { kind: 'unavailable', reason: 'the HERALD language server is not running' };
    try {
      return await client.sendRequest(workedPairRequest, params);
    } catch (error) {
      return { kind: 'unavailable', reason: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** `t1: original ↔ launder citation 0 → p2` (`t1: original ↔ same_final edit`), the diff editor's title. */
function diffTitle(params: WorkedPairParams): string {
  return `${params.trajectory}: original ↔ ${pairEditTitle(params)}`;
}

export function registerTrajectoryDiff(context: ExtensionContext, session: ServerSession): void {
  const documents = new TrajectoryDocuments(session);
  context.subscriptions.push(
    workspace.registerTextDocumentContentProvider(trajectoryScheme, documents),
    // A second argument may name the editor column (the report view opens pairs beside itself, not over itself).
    commands.registerCommand(openWorkedPairCommand, async (argument: unknown, where?: unknown) => {
      const params = pairParamsOf(argument);
      if (params === undefined) {
        await window.showErrorMessage('HERALD: this command opens a worked pair named by a finding, a hover or the report view.');
        return;
      }
      const opening = documents.next(params);
      const answer = await documents.answer(opening);
      if (answer.kind === 'unavailable') {
        await window.showWarningMessage(`HERALD cannot show the worked pair ${params.trajectory}: ${answer.reason}`);
        return;
      }
      const viewColumn = typeof where === 'object' && where !== null && 'viewColumn' in where && typeof where.viewColumn === 'number' ? where.viewColumn : undefined;
      await commands.executeCommand('vscode.diff', documentUri(opening, 'original'), documentUri(opening, 'edited'), diffTitle(params), { preview: false, viewColumn });
    }),
  );
}
