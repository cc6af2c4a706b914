import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** A source file and the files it imports for their values (type-only imports left out: they vanish at runtime). */
export type ImportGraph = Map<string, Set<string>>;

/** Every `.ts` file under `dir` (tests left out), as paths relative to `dir`. */
function sourceFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, base);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative(base, path)] : [];
  });
}

/** Whether an import brings a value at runtime (not `import type`, not only `type` names). */
function importsValue(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return false;
    const clause = node.exportClause;
    return !clause || !ts.isNamedExports(clause) || clause.elements.some((e) => !e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return true;
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.length === 0 || bindings.elements.some((e) => !e.isTypeOnly);
}

/** The value imports between the source files under `dir` (relative specifiers only). */
export function importGraph(dir: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(dir)) {
    const source = ts.createSourceFile(file, readFileSync(join(dir, file), 'utf8'), ts.ScriptTarget.Latest);
    const targets = new Set<string>();
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      if (!importsValue(statement)) continue;
      targets.add(relative(dir, resolve(dir, dirname(file), specifier.text)));
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The graph of `graph`'s files grouped by `groupOf` (a folder), without a group's edges to itself. */
export function groupGraph(graph: ImportGraph, groupOf: (file: string) => string): ImportGraph {
  const groups: ImportGraph = new Map();
  for (const [file, targets] of graph) {
    const from = groupOf(file);
    const edges = groups.get(from) ?? new Set();
    groups.set(from, edges);
    for (const target of targets) if (groupOf(target) !== from) edges.add(groupOf(target));
  }
  return groups;
}

/** The cycles of a graph: each strongly connected component of more than one node (Tarjan's algorithm). */
export function cycles(graph: ImportGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, indices.get(next) ?? 0));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        component.push(member);
        if (member === node) break;
      }
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}
