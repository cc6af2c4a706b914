export { escapeInline, escapeLines } from './escape-markdown.ts';
export { escapeXml } from './escape-xml.ts';
export { LABELS, type MarkdownLabels } from './labels.ts';
export { mapBranch } from './map-branch.ts';
export { mapFileName } from './map-file-name.ts';
export type {
  JsonValue,
  MarkdownConsultation,
  MarkdownConsultationRecord,
  MarkdownDecision,
  MarkdownMap,
  MarkdownMessage,
  MarkdownNode,
  MarkdownNote,
  MarkdownOptions,
  MarkdownQuestion,
  MarkdownRun,
} from './markdown-map.ts';
export { MAP_JSON_FORMAT, type MapJson, type MapJsonNode, renderMapJson } from './render-map-json.ts';
export { renderMapMarkdown } from './render-map-markdown.ts';
export { renderMapOpml } from './render-map-opml.ts';
