import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openPglite, pgliteTemplate, pgliteTemplateFits } from './client.ts';

/**
 * Makes the PGlite template of client.ts (an empty, migrated data directory) unless the one
 * there already fits this PGlite version and these migrations. Run by the production build
 * (`node dist/server/make-pglite-template.js`, scripts/build.mjs) in a process of its own.
 */
export async function makePgliteTemplate(
  template: string = pgliteTemplate.dir,
): Promise<'current' | 'made'> {
  if (pgliteTemplateFits(template)) return 'current';
  const key = pgliteTemplate.key();
  const partial = `${template}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  try {
    // The template that is there does not fit, so this is a real initdb.
    const database = await openPglite(path.join(partial, 'db'), { template });
    await database.migrate();
    await database.close();
    fs.writeFileSync(path.join(partial, 'template.json'), `${JSON.stringify({ key })}\n`);
    fs.rmSync(template, { recursive: true, force: true });
    fs.renameSync(partial, template);
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return 'made';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  makePgliteTemplate().then(
    (result) => {
      if (result === 'made') console.log(`PGlite template made in ${pgliteTemplate.dir}`);
    },
    (error: unknown) => {
      console.error(
        'The PGlite template could not be made (new data directories will run initdb):',
      );
      console.error(error);
      process.exit(1);
    },
  );
}
