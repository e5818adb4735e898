/** The time port: every rule that reads "now" takes a Clock, so tests can move time. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
