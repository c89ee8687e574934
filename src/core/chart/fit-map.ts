import type { ChartRevision } from "./history.ts";

// The fit map: every card x mode cell of the newest estimate, with the revision since which the
// cell has read the same (the revision where it last changed).

type FitMapCell = { verdict: string; text: string; since: string };
type FitMap = { head: string; cards: string[]; modes: string[]; cells: Map<string, FitMapCell> };

export const cellKey = (card: string, mode: string) => `${card}\n${mode}`;

/** The map for the newest estimated revision of `revs` (oldest first); null when none has an estimate. */
export function fitMap(revs: ChartRevision[]): FitMap | null {
  const estimated = revs.filter((r) => r.estimate !== null);
  const head = estimated.at(-1);
  if (!head?.estimate) return null;
  const cells = new Map<string, FitMapCell>();
  for (const f of head.estimate.fit) {
    let since = head.sha;
    // Walk back while the cell reads the same; the last revision reached is where it last changed.
    for (let i = estimated.length - 2; i >= 0; i--) {
      const prev = estimated[i]?.estimate?.fit.find((g) => g.card === f.card && g.mode === f.mode);
      if (!prev || prev.text !== f.text || prev.verdict !== f.verdict) break;
      since = estimated[i]?.sha ?? since;
    }
    cells.set(cellKey(f.card, f.mode), { verdict: f.verdict, text: f.text, since });
  }
  const cards = [...new Set(head.estimate.fit.map((f) => f.card))];
  const modes = [...new Set(head.estimate.fit.map((f) => f.mode))];
  return { head: head.sha, cards, modes, cells };
}
