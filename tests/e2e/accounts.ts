// Logins of the fixture accounts, shared by serve.ts (which makes them) and the journeys.
export const E2E_ADMIN = { email: 'admin@canto.test', password: 'admin-pass-123' } as const;
export const E2E_ARTIST = {
  email: 'artist@canto.test',
  password: 'artist-pass-123',
  displayName: 'E2E Artist',
} as const;
/** An artist with revenue already calculated (fixture-accounts.ts), for the withdrawal journey. */
export const E2E_EARNER = {
  email: 'earner@canto.test',
  password: 'earner-pass-123',
  displayName: 'E2E Earner',
} as const;
export const E2E_EARNER_REVENUE_CENTS = 15_000;
