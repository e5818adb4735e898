/*
 * Writes to songs, announced: whoever listens hears of each write before it starts and again
 * once it has ended. Search drops its answer cache both times, so an answer read while a
 * write ran is never kept and this process's uploads, edits and deletions show at once
 * (ADR 0011 "Answer cache").
 */

export type CatalogueWriteListener = () => void;

type Write = (...args: never[]) => Promise<unknown>;

export function catalogueWrites() {
  const listeners: CatalogueWriteListener[] = [];
  const tell = () => {
    for (const listener of listeners) listener();
  };
  return {
    listen(listener: CatalogueWriteListener): void {
      listeners.push(listener);
    },

    /** `writes`, each announced before it starts and once it has ended, however it ends. */
    announcing<W extends Record<string, Write>>(writes: W): W {
      const announced = Object.entries(writes).map(([name, write]) => [
        name,
        async (...args: never[]) => {
          tell();
          try {
            return await write(...args);
          } finally {
            tell();
          }
        },
      ]);
      return Object.fromEntries(announced) as W;
    },
  };
}
