import { ACTIVE_RUN_STATUSES, type NodeStatus } from '@thinkingmap/db/enums';
import { treeOrder } from '@thinkingmap/map-graph';
import { escapeInline, escapeLines } from './escape-markdown.ts';
import { LABELS, type MarkdownLabels } from './labels.ts';
import type { MarkdownMap, MarkdownNode, MarkdownOptions } from './markdown-map.ts';

/** The box before a node: done, in progress, waiting for the person, blocked, failed, or open. */
const STATUS_MARK: Record<NodeStatus, string> = {
  PENDING: '[ ]',
  READY: '[ ]',
  BLOCKED: '[!]',
  RUNNING: '[~]',
  WAITING: '[?]',
  COMPLETED: '[x]',
  FAILED: '[-]',
};

/** Text kept on its lines, quoted under a list item at `indent`. */
function quote(text: string, indent: string): string[] {
  return escapeLines(text).map((line) => (line ? `${indent}> ${line}` : `${indent}>`));
}

/**
 * A Markdown document kept exactly as written (a divergent final output: its headings, lists and code with
 * their indentation), as a fenced `markdown` block under a list item at `indent`. The fence is longer than
 * any run of backticks in the text, so nothing in it can close the block and forge the map's structure.
 */
function fenced(text: string, indent: string): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const body = text.replace(/\s+$/, '').split(/\r?\n/);
  return [`${indent}${fence}markdown`, ...body.map((line) => (line ? `${indent}${line}` : '')), `${indent}${fence}`];
}

function renderNode(
  node: MarkdownNode,
  depth: number,
  questionOf: (id: string) => string,
  labels: MarkdownLabels,
  ids: boolean,
): string[] {
  const indent = '  '.repeat(depth);
  const inner = `${indent}  `;
  const id = ids ? ` (\`${node.id}\`)` : '';
  const status = labels.nodeStatus[node.status];
  const lines = [`${indent}- ${STATUS_MARK[node.status]} **${escapeInline(node.question)}** — ${status}${id}`];
  if (node.goal) lines.push(`${inner}- ${labels.goal}: ${escapeInline(node.goal)}`);
  if (node.constraints?.length)
    lines.push(`${inner}- ${labels.constraints}: ${node.constraints.map(escapeInline).join('; ')}`);
  if (node.divergentRole) {
    const score = node.completionScore == null ? '' : ` · ${labels.completion} ${node.completionScore}`;
    lines.push(
      `${inner}- ${labels.divergentRole[node.divergentRole]} · ${labels.level} ${node.divergentLevel ?? 0}${score}`,
    );
  }
  if (node.statusReason) lines.push(`${inner}- ${labels.why}: ${escapeInline(node.statusReason)}`);
  if (node.dependsOn?.length) {
    const names = node.dependsOn.map((dependsOnId) => `“${escapeInline(questionOf(dependsOnId))}”`);
    lines.push(`${inner}- ${labels.waitsFor}: ${names.join(', ')}`);
  }
  for (const item of node.contextItems ?? []) {
    lines.push(`${inner}- ${labels.context}${item.title ? ` (${escapeInline(item.title)})` : ''}:`);
    lines.push(...quote(item.content, `${inner}  `));
  }
  if (node.conclusion && node.divergentRole === 'FINAL') {
    lines.push(`${inner}- ${labels.divergentDocument}:`, ...fenced(node.conclusion, `${inner}  `));
  } else if (node.conclusion) {
    const kind = node.conclusionKind ? ` (${labels.conclusionKind[node.conclusionKind]})` : '';
    lines.push(`${inner}- ${labels.conclusion}${kind}:`, ...quote(node.conclusion, `${inner}  `));
  }
  if (node.staleReason) {
    const source = node.staleSourceQuestion ? ` (“${escapeInline(node.staleSourceQuestion)}”)` : '';
    lines.push(`${inner}- ${labels.outOfDate}: ${labels.staleReason[node.staleReason]}${source}`);
  }
  return lines;
}

/** A fence longer than any run of backticks in `text`, so the text inside can never close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** The consultations' records by consultation, then each note by path with its Markdown kept as written. */
function renderConsultations(map: MarkdownMap, labels: MarkdownLabels, ids: boolean): string[] {
  const out: string[] = [];
  const consultations = map.consultations ?? [];
  if (consultations.length) {
    out.push('', `## ${labels.consultationRecords}`);
    for (const [index, consultation] of consultations.entries()) {
      const number = consultations.length > 1 ? ` ${index + 1}` : '';
      const id = ids ? ` (\`${consultation.id}\`)` : '';
      out.push('', `### ${labels.consultation}${number}${id}`, '');
      if (!consultation.records.length) out.push(`_${labels.noRecords}_`);
      for (const record of consultation.records)
        out.push(`- **${labels.recordKind[record.kind]}:** ${escapeInline(record.content)}`);
    }
  }
  if (map.notes?.length) {
    out.push('', `## ${labels.notes}`);
    for (const note of map.notes) {
      // The note's own Markdown, fenced: its headings and lists stay its own, never the map's sections (its
      // final line break is the fence's).
      const fence = fenceFor(note.content);
      out.push(
        '',
        `### ${escapeInline(note.path)}`,
        '',
        `${fence}markdown`,
        ...note.content.replace(/\r?\n$/, '').split(/\r?\n/),
        fence,
      );
    }
  }
  return out;
}

/**
 * Renders a map as Markdown for people and language models, in the map's language: the problem, goal and
 * constraints, the tree of questions (depth-first, siblings by position) with statuses, dependencies,
 * context and conclusions (saying when one is out of date, and why), then what the agents wait for and which agents are at work,
 * then the consultations' records and the notes (each note's Markdown in a fence, with its path). Everything a person or
 * an agent wrote is escaped, so no text can forge a heading, a section or a list item.
 *
 * The one renderer: the MCP `get_map` tool and `thinkingmap://maps/{id}` resource (with ids), and the web
 * workspace's export (without).
 */
export function renderMapMarkdown(map: MarkdownMap, options: MarkdownOptions = {}): string {
  const ids = options.ids ?? true;
  const labels = LABELS[map.language];
  const out = [`# ${escapeInline(map.title)}`];
  if (ids) out.push('', `${labels.map} \`${map.id}\` · ${labels.mapStatus[map.status]} · ${labels.languageName}`);
  if (map.problem) out.push('', `## ${labels.problem}`, '', ...escapeLines(map.problem));
  if (map.goal) out.push('', `**${labels.goal}:** ${escapeInline(map.goal)}`);
  if (map.constraints?.length)
    out.push('', `**${labels.constraints}:**`, '', ...map.constraints.map((c) => `- ${escapeInline(c)}`));

  out.push('', `## ${labels.tree}`, '');
  if (map.nodes.length === 0) out.push(`_${labels.noNodes}_`);
  const byId = new Map(map.nodes.map((node) => [node.id, node]));
  const questionOf = (id: string) => byId.get(id)?.question ?? id;
  for (const { node, depth } of treeOrder(map.nodes)) out.push(...renderNode(node, depth, questionOf, labels, ids));

  if (map.pendingQuestions?.length) {
    out.push('', `## ${labels.waitingForYou}`, '');
    for (const q of map.pendingQuestions) {
      const where = q.nodeId && ids ? ` ${labels.onNode} \`${q.nodeId}\`` : '';
      const request = ids ? `\`${q.requestId}\` ` : '';
      out.push(`- ${request}(${q.kind}${where}): ${escapeInline(q.question)}`);
    }
  }
  const active = (map.runs ?? []).filter((run) => ACTIVE_RUN_STATUSES.includes(run.status));
  if (active.length) {
    out.push('', `## ${labels.agentsAtWork}`, '');
    for (const run of active) {
      const where = run.nodeId && ids ? ` ${labels.onNode} \`${run.nodeId}\`` : '';
      const runId = ids ? ` (${labels.run} \`${run.id}\`)` : '';
      out.push(`- ${run.agent}${where}: ${labels.runStatus[run.status]}${runId}`);
    }
  }
  out.push(...renderConsultations(map, labels, ids));
  return `${out.join('\n')}\n`;
}
