// The report panels' decisions, pure so a node test can hold them: which panel follows the spec the
// reader switched to, and the line under the report's title saying what was audited.

/** A report panel as the decision sees it: the spec it shows (URI string) and whether it is on screen. */
export interface PanelView {
  readonly spec: string;
  readonly visible: boolean;
}

export type FollowAction =
  | { readonly kind: 'stay' }
  /** That spec has its own panel, hidden: bring it to the front without taking the focus. */
  | { readonly kind: 'reveal'; readonly spec: string }
  /** The panel on screen now shows the active spec instead. */
  | { readonly kind: 'retarget'; readonly from: string };

/**
 * When the active editor becomes the spec `active`, the report on screen follows it: its own panel
 * when it has one, else the visible panel switches to it. No panel on screen (the reader closed or
 * hid them) means nothing opens: the report is shown on request only.
 */
export function followActiveSpec(panels: readonly PanelView[], active: string): FollowAction {
  const own = panels.find((p) => p.spec === active);
  if (own !== undefined) return own.visible ? { kind: 'stay' } : panels.some((p) => p.visible) ? { kind: 'reveal', spec: active } : { kind: 'stay' };
  const shown = panels.find((p) => p.visible);
  return shown === undefined ? { kind: 'stay' } : { kind: 'retarget', from: shown.spec };
}

/** The spec as the editor holds it now, when it is open. */
export interface OpenSpec {
  readonly version: number;
  /** It has edits not saved to disk. */
  readonly dirty: boolean;
}

/**
 * The line under the report's title: the spec's file name and when its audit finished, and how the
 * audited text stands to the spec now: changed since (the editor's version moved on from the audited
 * one), or the same text but not saved (an audit run as one types). `open` is undefined when the
 * spec is not open in an editor, so the audited text is the one on disk.
 */
export function reportNote(specName: string, finishedAt: string, auditedVersion: number, open: OpenSpec | undefined): string {
  const state = open === undefined ? ''
    : open.version !== auditedVersion ? '; the spec has changed since'
      : open.dirty ? ', of unsaved changes' : '';
  return `Audit of ${specName}, finished ${finishedAt}${state}.`;
}
