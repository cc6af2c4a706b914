import type { DependencyRecord, MapRecord, NodeRecord } from '../api/types.ts';
import type { MessageKey } from '../i18n/messages.ts';
import { buildTreeStructure, walkTree } from './tree-structure.ts';

type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

const STATUS_MARK: Record<NodeRecord['status'], string> = {
  COMPLETED: '[x]',
  PENDING: '[ ]',
  READY: '[ ]',
  BLOCKED: '[ ]',
  RUNNING: '[~]',
  WAITING: '[?]',
  FAILED: '[!]',
};

/**
 * The map as Markdown: title, problem, goal and constraints, then the tree of questions as nested list
 * items with their status, goal, dependencies and conclusions (quoted).
 */
export function mapToMarkdown(
  map: MapRecord,
  nodes: Iterable<NodeRecord>,
  dependencies: Iterable<DependencyRecord>,
  t: Translate,
): string {
  const all = [...nodes];
  const byId = new Map(all.map((node) => [node.id, node]));
  const deps = [...dependencies];
  const lines: string[] = [`# ${map.title}`, ''];
  if (map.problem) lines.push(`**${t('workspace.problem')}:** ${map.problem}`, '');
  if (map.goal) lines.push(`**${t('newMap.goal')}:** ${map.goal}`, '');
  if (map.constraints.length)
    lines.push(`**${t('newMap.constraints')}:**`, '', ...map.constraints.map((c) => `- ${c}`), '');
  walkTree(buildTreeStructure(all), (node, depth) => {
    const indent = '  '.repeat(depth);
    const inner = `${indent}  `;
    lines.push(
      `${indent}- ${STATUS_MARK[node.status]} **${oneLine(node.question)}** _(${t(`status.${node.status}`)})_`,
    );
    if (node.goal) lines.push(`${inner}${t('node.goal')}: ${oneLine(node.goal)}`);
    for (const constraint of node.constraints) lines.push(`${inner}- ${oneLine(constraint)}`);
    const waits = deps
      .filter((d) => d.nodeId === node.id)
      .map((d) => byId.get(d.dependsOnId)?.question)
      .filter(Boolean);
    if (waits.length) lines.push(`${inner}${t('deps.title')}: ${waits.map((q) => `“${oneLine(q!)}”`).join(', ')}`);
    if (node.conclusion) {
      const kind = node.conclusionKind ? ` (${t(`kind.${node.conclusionKind}`)})` : '';
      lines.push(`${inner}> **${t('node.conclusion')}${kind}:** ${node.conclusion.split('\n').join(`\n${inner}> `)}`);
    }
  });
  return `${lines.join('\n')}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** A file name for the export: the title with unsafe characters removed. */
export function markdownFileName(title: string): string {
  const base = title
    .replace(/[\\/:*?"<>|\s]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'thinking-map'}.md`;
}
