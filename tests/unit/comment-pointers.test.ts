/**
 * A comment says why, in a line, or links an ADR (docs/decisions/) or another document in the
 * repository: an issue number, a development session or a file outside the repository means
 * nothing to the next reader, who has only the repository. Comments are read with the TypeScript
 * parser, so strings, template literals, regular expressions and JSX text never count.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** What a comment may not say, and why it is refused. */
const POINTERS: { pattern: RegExp; why: string }[] = [
  // The number may follow a line break inside a block comment (the cases below show each form).
  { pattern: /\bissues?(?:\s|\*|\/\/)+#?\d/i, why: 'an issue number' },
  { pattern: /(?:^|[\s(,;[])#\d+\b/, why: 'an issue number' },
  // "session" and a small number, not a session's status code or lifetime.
  {
    pattern: /\bsessions?(?:\s|\*|\/\/)+\d{1,2}\b(?!\s*(?:ms|s|h|d|days?|minutes?|hours?)\b)/i,
    why: 'a development session',
  },
  {
    pattern: /\b(?:product|spec|style|stack-notes)\.md\b/i,
    why: 'a document outside the repository',
  },
  { pattern: /\.\.\/shared\b|\/work\//, why: 'a path outside the repository' },
];

const ROOTS = ['src', 'tests', 'bench', 'scripts'];
const SOURCE = /\.(?:ts|tsx|js|mjs|cjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);

type Finding = { line: number; why: string; text: string };

const scriptKind = (fileName: string) =>
  fileName.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : /\.[mc]?js$/.test(fileName)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;

/**
 * Every comment of a file: the trivia before and after each token. A comment that seems to start
 * inside JSX text is that text, read as trivia from the token before it.
 */
function commentsOf(fileName: string, text: string): { pos: number; text: string }[] {
  const file = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    scriptKind(fileName),
  );
  const seen = new Map<number, string>();
  const jsxText: ts.Node[] = [];
  const keep = (pos: number, end: number) => void seen.set(pos, text.slice(pos, end));
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.JsxText) jsxText.push(node);
    ts.forEachLeadingCommentRange(text, node.pos, keep);
    ts.forEachTrailingCommentRange(text, node.end, keep);
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return [...seen]
    .filter(([pos]) => !jsxText.some((node) => pos >= node.pos && pos < node.end))
    .map(([pos, comment]) => ({ pos, text: comment }));
}

/** The comments of one file that cite an issue or point outside the repository. */
function pointersIn(fileName: string, text: string): Finding[] {
  const sourceLines = text.split('\n');
  const lineOf = (pos: number) => text.slice(0, pos).split('\n').length;
  const findings: Finding[] = [];
  // Parsing is the slow part: a file whose text matches nothing has no such comment either.
  if (!POINTERS.some(({ pattern }) => pattern.test(text))) return findings;
  for (const comment of commentsOf(fileName, text)) {
    for (const { pattern, why } of POINTERS) {
      const match = pattern.exec(comment.text);
      if (!match) continue;
      const line = lineOf(comment.pos + match.index + match[0].search(/\S/));
      findings.push({ line, why, text: sourceLines[line - 1]!.trim() });
    }
  }
  return findings.sort((a, b) => a.line - b.line);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : sourceFiles(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

const rootConfigs = fs
  .readdirSync('.', { withFileTypes: true })
  .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
  .map((entry) => entry.name);

const files = [...ROOTS.flatMap(sourceFiles), ...rootConfigs]
  .map((file) => file.split(path.sep).join('/'))
  .sort();

describe('comments name a reason, an ADR or a document in the repository', () => {
  it('reads the sources and the root configs', () => {
    expect(files.length).toBeGreaterThan(500);
    expect(files).toContain('eslint.config.js');
    expect(files).toContain('scripts/build.mjs');
  });

  it('no comment cites an issue, a session or a file outside the repository', () => {
    const found = files.flatMap((file) =>
      pointersIn(file, fs.readFileSync(file, 'utf8')).map(
        (f) => `${file}:${f.line}: ${f.why}: ${f.text}`,
      ),
    );
    expect(found).toEqual([]);
  });
});

describe('what the check reads as a pointer', () => {
  const lines = (fileName: string, text: string) =>
    pointersIn(fileName, text).map((f) => `${f.line} ${f.why}`);

  it.each([
    ['a line comment', 'const a = 1; // issue 5: why', ['1 an issue number']],
    ['a plural', '// Issues 6 and 7 asked for it\nexport {};', ['1 an issue number']],
    ['a possessive', "// not ours (Issue 8's contract)\nexport {};", ['1 an issue number']],
    [
      'a number on the next line',
      '/**\n * its creator (issue\n * 10 §5)\n */\nexport {};',
      ['2 an issue number'],
    ],
    ['a tracker reference', 'f(); /* see #12 */', ['1 an issue number']],
    ['a session', '// met since session 4\nexport {};', ['1 a development session']],
    [
      'product.md',
      '// title default (product.md §3)\nexport {};',
      ['1 a document outside the repository'],
    ],
    ['a shared path', '// see ../shared/notes\nexport {};', ['1 a path outside the repository']],
    [
      'an absolute path',
      '// written in /work/notes\nexport {};',
      ['1 a path outside the repository'],
    ],
    [
      'a comment at the end of a block',
      'function f() {\n  g();\n  // issue 3\n}',
      ['3 an issue number'],
    ],
    ['a comment at the end of the file', 'export {};\n// issue 3\n', ['2 an issue number']],
    ['a JSX comment', 'const e = <div>{/* issue 9 */}</div>;', ['1 an issue number']],
  ])('finds %s', (_, source, expected) => {
    const fileName = source.includes('<div>') ? 'x.tsx' : 'x.ts';
    expect(lines(fileName, source)).toEqual(expected);
  });

  it.each([
    ['a string', "const s = 'issue 5 and product.md';"],
    ['a template literal', 'const s = `// issue 5 ${1} /* #12 */`;'],
    ['a regular expression', 'const r = /\\/\\/ issue 5/;'],
    ['JSX text', 'const e = <p>// issue 5 and /* #12 */</p>;'],
    ['a spec citation and an ADR', '// spec §5 rules (docs/decisions/0014, ADR 0016)\nexport {};'],
    ['an RFC section', '// Range is GET only (RFC 9110 §14.2)\nexport {};'],
    ['the word issue without a number', "// the first issue's message is the spec's\nexport {};"],
    ['a colour in code', "const c = '#000000'; // black"],
    ['a session and a status code', '// such a session 403 insufficient_aal\nexport {};'],
    ['a session lifetime', '// a session 30 days after sign-in\nexport {};'],
  ])('ignores %s', (_, source) => {
    const fileName = source.includes('<p>') ? 'x.tsx' : 'x.ts';
    expect(lines(fileName, source)).toEqual([]);
  });
});
