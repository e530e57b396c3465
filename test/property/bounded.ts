/**
 * Every property stops within a minute, shrinking included: a run that goes on longer fails with
 * its seed printed, instead of holding CI until its time limit.
 */
export const bounded = { interruptAfterTimeLimit: 60_000, markInterruptAsFailure: true } as const;
