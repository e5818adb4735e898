// The web app's import graph as dpdm reads it (static and dynamic imports, the tsconfig's `@/`
// paths resolved), and the cycles in it: between files, and between the layers of
// src/web/README.md (a feature, a components/ folder, session, player, lib, shell, the app).
import path from 'node:path';
import { parseCircular, parseDependencyTree, type DependencyTree } from 'dpdm';

/** The import graph of the files under `root`/src/web (paths relative to `root`). */
export function webImportGraph(root: string): Promise<DependencyTree> {
  return parseDependencyTree(['src/web/**/*.{ts,tsx}'], {
    cwd: root,
    context: root,
    tsconfig: path.join(root, 'tsconfig.json'),
    transform: true,
    // Only the web app's own files matter here: node_modules, core and contracts are leaves.
    exclude: /node_modules|\/src\/(core|contracts)\//,
  });
}

/** Every cycle between files, each as the files along it. */
export function fileCycles(tree: DependencyTree): string[][] {
  return parseCircular(tree);
}

/** The layer a file of src/web belongs to; null outside src/web. */
export function layerOf(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts[1] !== 'web') return null;
  const [dir, sub] = parts.slice(2);
  if (!dir) return null;
  if (parts.length === 3) return 'app';
  // features/<feature>/…, components/<kind>/… (components/<file> is the components layer).
  if ((dir === 'features' || dir === 'components') && sub && parts.length > 4)
    return `${dir}/${sub}`;
  return dir;
}

/** Every cycle between layers (a file of one importing a file of another and back). */
export function layerCycles(tree: DependencyTree): string[][] {
  const layers: DependencyTree = {};
  const edges = new Set<string>();
  for (const [file, deps] of Object.entries(tree)) {
    const from = layerOf(file);
    if (!from) continue;
    const out = (layers[from] ??= []) as NonNullable<DependencyTree[string]>[number][];
    for (const dep of deps ?? []) {
      const to = dep.id && layerOf(dep.id);
      if (!to || to === from || edges.has(`${from}>${to}`)) continue;
      edges.add(`${from}>${to}`);
      out.push({ ...dep, issuer: from, id: to });
      layers[to] ??= [];
    }
  }
  return parseCircular(layers);
}
