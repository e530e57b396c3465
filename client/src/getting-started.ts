import { commands, Uri, type ExtensionContext, type LogOutputChannel } from 'vscode';
import { registerAnalysisTasks } from './analysis-tasks';
import { ExpectationTests } from './expectation-tests';
import { registerNewSpec } from './new-spec';
import type { ServerSession } from './server-session';
import { registerWalkthrough } from './walkthrough';

/** The command behind a spec's expectations run, answering with each line's outcome (the walkthrough and the API tests use it). */
export const runExpectationTestsCommand = 'herald.runExpectationTests';

/**
 * Getting started and everyday use: the walkthrough and its sample, "HERALD: New Spec", each
 * `expect` line as a test in the Test Explorer, and the `herald` tasks.
 */
export function registerGettingStarted(context: ExtensionContext, session: ServerSession, log: LogOutputChannel): void {
  const expectations = new ExpectationTests(session);
  context.subscriptions.push(
    expectations,
    commands.registerCommand(runExpectationTestsCommand, (uri: unknown) => expectations.runSpec(uri instanceof Uri ? uri : Uri.parse(String(uri)))),
    registerNewSpec(session),
    registerAnalysisTasks(context.asAbsolutePath('dist/herald.js'), session),
    ...registerWalkthrough(context, expectations, log),
  );
}
