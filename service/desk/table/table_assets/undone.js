// What an undo takes back, as the table page marks it in its own log between reads: the
// same as the service's log (domain.battle.Timeline.undone). No imports, so that Node runs
// it as it is (tests/e2e/test_table_undone_js.py).

/** The battle-level events no undo takes back: the fold keeps what they set through one
 * (a dice epoch, a seed revealed, a client seed, a dispute raised or settled), so they are
 * never marked undone. The same names as domain.battle.NEVER_UNDONE. */
export const NEVER_UNDONE = new Set([
  "ClientSeedSet",
  "DiceEpochStarted",
  "DiceSeedRevealed",
  "DiceSubSeedRevealed",
  "DisputeRaised",
  "DisputeResolved",
]);

/** Mark undone the events an undo to version `to` takes back: those after it, but the
 * kept ones and those sealed for this reader (whose type the page is not told). */
export function markUndone(events, to) {
  for (const old of events) {
    if (old.version > to && !old.sealed && !NEVER_UNDONE.has(old.type)) old.undone = true;
  }
}
