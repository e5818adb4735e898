/**
 * Every feature module is made the same way (ARCHITECTURE.md "Module context"):
 * `create<Feature>Module(ctx, deps)`, `ctx` the platform's ModuleContext (or a Pick of it) and
 * `deps` the other modules' APIs and the module's own settings. Read from the sources with the
 * TypeScript parser, so a module that takes Env, a bare Db or no context fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MODULES = path.resolve('src/server/modules');

const pascal = (kebab: string) =>
  kebab.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

/** The factory's parameters as written: `name: type` each. */
function factoryParameters(source: string, name: string): string[] | null {
  const file = ts.createSourceFile('module.ts', source, ts.ScriptTarget.Latest, true);
  for (const statement of file.statements) {
    if (!ts.isFunctionDeclaration(statement) || statement.name?.text !== name) continue;
    const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) return null;
    return statement.parameters.map((p) => `${p.name.getText(file)}: ${p.type?.getText(file)}`);
  }
  return null;
}

/** Why a factory's parameters are not (ctx, deps), or null when they are. */
function shapeProblem(parameters: string[] | null): string | null {
  if (!parameters) return 'no exported factory';
  if (parameters.length !== 2) return `${parameters.length} parameters, not (ctx, deps)`;
  const [ctx, deps] = parameters as [string, string];
  if (!/^_?ctx: (ModuleContext|Pick<ModuleContext, [^>]+>)$/.test(ctx))
    return `first parameter is "${ctx}", not ctx: ModuleContext`;
  if (!/^(_?deps|\{[^]*\}): /.test(deps)) return `second parameter is "${deps}", not deps`;
  return null;
}

const modules = fs
  .readdirSync(MODULES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

describe('every feature module is createXModule(ctx, deps)', () => {
  it('finds the modules', () => expect(modules.length).toBeGreaterThan(10));

  for (const module of modules) {
    it(module, () => {
      const file = path.join(MODULES, module, `${module}.module.ts`);
      const name = `create${pascal(module)}Module`;
      expect(shapeProblem(factoryParameters(fs.readFileSync(file, 'utf8'), name))).toBeNull();
    });
  }

  it.each([
    ['a database handle', 'export function createRolesModule(db: Db): RolesModule {}'],
    ['nothing', 'export function createSystemModule(): FeatureModule {}'],
    ['Env', 'export function createXModule(env: Env, deps: {}) {}'],
    ['the context alone', 'export function createXModule(ctx: ModuleContext) {}'],
  ])('refuses a factory taking %s', (_, source) => {
    const name = /function (\w+)/.exec(source)![1]!;
    expect(shapeProblem(factoryParameters(source, name))).not.toBeNull();
  });
});
