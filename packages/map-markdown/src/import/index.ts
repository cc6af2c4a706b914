export { type ImportedMap, type ImportedNode, MapImportError, outlineNode } from './imported-map.ts';
export { parseMapJson } from './parse-map-json.ts';
export { parseMarkdownOutline } from './parse-markdown-outline.ts';
export { parseOpml } from './parse-opml.ts';
