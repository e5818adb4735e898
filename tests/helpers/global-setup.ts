import type { TestProject } from 'vitest/node';
import {
  ensurePgliteTemplate,
  ensurePostgresTemplate,
  migrationsHash,
  postgresReachable,
} from './db-templates.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string | null;
  }
}

export default async function setup(project: TestProject) {
  const hash = migrationsHash();
  project.provide('pgliteTemplate', await ensurePgliteTemplate(hash));
  const reachable = await postgresReachable();
  if (!reachable && process.env.CANTO_REQUIRE_POSTGRES === '1') {
    throw new Error('PostgreSQL is required (CANTO_REQUIRE_POSTGRES=1) but is not reachable');
  }
  project.provide('postgresTemplate', reachable ? await ensurePostgresTemplate(hash) : null);
}
