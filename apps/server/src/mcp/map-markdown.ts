import type { MapSnapshot, NodeSummary } from './map-snapshot.ts';

const STATUS_MARK: Record<string, string> = { COMPLETED: '[x]', IN_PROGRESS: '[~]', BLOCKED: '[!]', FAILED: '[-]' };

function quote(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line) => `${indent}> ${line}`)
    .join('\n');
}

function renderNode(node: NodeSummary, depth: number, snapshot: MapSnapshot): string[] {
  const indent = '  '.repeat(depth);
  const lines = [
    `${indent}- ${STATUS_MARK[node.status] ?? '[ ]'} **${node.question}** — ${node.status.toLowerCase()} (\`${node.id}\`)`,
  ];
  const inner = `${indent}  `;
  if (node.goal) lines.push(`${inner}- Goal: ${node.goal}`);
  if (node.statusReason) lines.push(`${inner}- Why: ${node.statusReason}`);
  if (node.dependsOn.length) {
    const names = node.dependsOn.map((id) => snapshot.nodes.find((n) => n.id === id)?.question ?? id);
    lines.push(`${inner}- Depends on: ${names.join('; ')}`);
  }
  for (const item of node.contextItems)
    lines.push(`${inner}- Context${item.title ? ` (${item.title})` : ''}: ${item.content}`);
  if (node.conclusion) {
    lines.push(`${inner}- Conclusion${node.conclusionKind ? ` (${node.conclusionKind.toLowerCase()})` : ''}:`);
    lines.push(quote(node.conclusion, `${inner}  `));
  }
  return lines;
}

/**
 * Renders a map as Markdown for people and language models: the problem, the tree with statuses,
 * dependencies, context and conclusions, then what the agents wait for. Ids are kept in backticks so a
 * model reading the text can call the tools with them.
 */
export function renderMapMarkdown(snapshot: MapSnapshot): string {
  const out = [
    `# ${snapshot.title}`,
    '',
    `Map \`${snapshot.id}\` · ${snapshot.status.toLowerCase()} · language ${snapshot.language}`,
  ];
  if (snapshot.problem) out.push('', '## Problem', '', snapshot.problem);
  if (snapshot.goal) out.push('', `**Goal:** ${snapshot.goal}`);
  if (snapshot.constraints.length) out.push('', '**Constraints:**', ...snapshot.constraints.map((c) => `- ${c}`));
  out.push('', '## Thinking tree', '');
  if (snapshot.nodes.length === 0) out.push('_No nodes yet: the problem is still being understood._');
  const depth = new Map<string, number>();
  for (const node of snapshot.nodes) {
    const d = node.parentId ? (depth.get(node.parentId) ?? 0) + 1 : 0;
    depth.set(node.id, d);
    out.push(...renderNode(node, d, snapshot));
  }
  if (snapshot.pendingQuestions.length) {
    out.push('', '## Waiting for you', '');
    for (const q of snapshot.pendingQuestions) {
      const where = q.nodeId ? ` on node \`${q.nodeId}\`` : '';
      out.push(`- \`${q.requestId}\` (${q.kind}${where}): ${q.question}`);
    }
  }
  const active = snapshot.runs.filter((run) => run.status === 'RUNNING' || run.status === 'WAITING');
  if (active.length) {
    out.push('', '## Agents at work', '');
    for (const run of active)
      out.push(
        `- ${run.agent}${run.nodeId ? ` on \`${run.nodeId}\`` : ''}: ${run.status.toLowerCase()} (run \`${run.id}\`)`,
      );
  }
  return `${out.join('\n')}\n`;
}
