import { defineConfig } from 'drizzle-kit';

// Only `drizzle-kit generate` is used; migrations run from the app (see db/migrate.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/index.ts',
  out: './src/server/db/migrations',
});
