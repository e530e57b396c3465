// The question inside a prompt, for logs that keep only the rendered prompt (verl dumps, SkyRL
// evals). Search-R1's template ends with `Question: {question}\n`, so the question is the text after
// the LAST occurrence of the marker, up to the end of that line or the first chat-template special
// token (`<|im_end|>`), trimmed. The marker is an importer option for other templates.

/** The question, or undefined when the marker is absent or nothing follows it on its line. */
export function promptQuestion(prompt: string, marker: string): string | undefined {
  const at = prompt.lastIndexOf(marker);
  if (at === -1) return undefined;
  const rest = prompt.slice(at + marker.length);
  const stop = rest.search(/\n|<\|/u);
  const question = (stop === -1 ? rest : rest.slice(0, stop)).trim();
  return question === '' ? undefined : question;
}
