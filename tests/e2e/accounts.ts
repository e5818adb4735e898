// Logins of the fixture accounts, shared by serve.ts (which makes them) and the journeys.
export const E2E_ADMIN = { email: 'admin@canto.test', password: 'admin-pass-123' } as const;
export const E2E_ARTIST = {
  email: 'artist@canto.test',
  password: 'artist-pass-123',
  displayName: 'E2E Artist',
} as const;
