/**
 * Every installed package supports the Node versions the README names (20.19+ and 22 LTS):
 * the lockfile records each package's `engines`, and `npm ci` warns EBADENGINE for any that
 * asks for more. `overrides` in package.json pin transitive packages to versions that fit.
 */
import fs from 'node:fs';
import semver from 'semver';
import { expect, it } from 'vitest';

type Locked = { engines?: { node?: string }; os?: string[]; cpu?: string[] };

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, Locked>;
};
const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  engines: { node: string };
};

/** The oldest release of each line the README names. */
const SUPPORTED = ['20.19.0', '22.13.0'];

// npm installs (and checks) a platform package only on its own platform.
const installedHere = (p: Locked) =>
  (!p.os || p.os.includes(process.platform)) && (!p.cpu || p.cpu.includes(process.arch));

it.each(SUPPORTED)('has every locked package support Node %s', (version) => {
  const unfit = Object.entries(lock.packages)
    .filter(([where, p]) => where !== '' && installedHere(p) && p.engines?.node)
    .filter(([, p]) => !semver.satisfies(version, p.engines!.node!))
    .map(([where, p]) => `${where.replace(/^.*node_modules\//, '')} (node ${p.engines!.node})`);
  expect(unfit).toEqual([]);
});

it('has package.json promise exactly the supported lines', () => {
  for (const version of SUPPORTED)
    expect(semver.satisfies(version, manifest.engines.node)).toBe(true);
  expect(semver.satisfies('20.18.0', manifest.engines.node)).toBe(false);
});
