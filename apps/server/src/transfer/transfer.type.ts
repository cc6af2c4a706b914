import { mapFileName } from '@thinkingmap/map-markdown';
import { ForbiddenError, NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { MapRef } from '../maps/map.type.ts';
import { builder } from '../schema/builder.ts';
import { LanguageEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS, ErrorInterface } from '../schema/errors.type.ts';
import { ImportError } from './import-error.ts';
import { importMap } from './import-map.ts';
import { loadMapDocument, MapFileFormat, renderMapFile } from './map-document.ts';

const MapFileFormatEnum = builder.enumType(MapFileFormat, {
  name: 'MapFileFormat',
  description:
    'JSON: everything a map is (versioned, `format: "thinkingmap"`), for tools and for importing again. MARKDOWN: ' +
    'headings and nested lists. OPML: the outline format of XMind, MindNode, Logseq, Workflowy and OmniOutliner.',
});

/** A file's extension and media type, per format. */
const FILE_TYPES: Record<MapFileFormat, { extension: string; mimeType: string }> = {
  JSON: { extension: 'json', mimeType: 'application/json' },
  MARKDOWN: { extension: 'md', mimeType: 'text/markdown' },
  OPML: { extension: 'opml', mimeType: 'text/x-opml' },
};

interface MapFile {
  format: MapFileFormat;
  fileName: string;
  mimeType: string;
  content: string;
}

const MapFileRef = builder.objectRef<MapFile>('MapFile').implement({
  description: 'A map as a file: its text, and a name and media type to save it under.',
  fields: (t) => ({
    format: t.field({ type: MapFileFormatEnum, resolve: (file) => file.format }),
    fileName: t.exposeString('fileName'),
    mimeType: t.exposeString('mimeType'),
    content: t.exposeString('content'),
  }),
});

builder.objectType(ImportError, {
  name: 'ImportError',
  description: 'The file cannot be imported: `where` names the place in it (a line, a path), `reason` what is wrong.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    format: t.field({ type: MapFileFormatEnum, resolve: (error) => error.format }),
    where: t.exposeString('where'),
    reason: t.exposeString('reason'),
  }),
});

builder.queryField('exportMap', (t) =>
  t.field({
    type: MapFileRef,
    description: 'The whole map as a file, rendered by the same code as the web workspace’s exports.',
    errors: { types: ACCESS_ERRORS },
    args: {
      mapId: t.arg.id({ required: true }),
      format: t.arg({ type: MapFileFormatEnum, required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const map = await loadMapDocument(ctx.commands, ctx.notes, String(args.mapId));
      const type = FILE_TYPES[args.format];
      return {
        format: args.format,
        fileName: mapFileName(map.title, type.extension),
        mimeType: type.mimeType,
        content: renderMapFile(map, args.format),
      };
    },
  }),
);

const ImportMapInput = builder.inputType('ImportMapInput', {
  fields: (t) => ({
    format: t.field({ type: MapFileFormatEnum, required: true }),
    content: t.string({ required: true, description: 'The file’s text.' }),
    title: t.string({ description: 'The new map’s title; else the file’s (its title, or its first heading).' }),
    language: t.field({ type: LanguageEnum, description: 'Else the file’s, else detected from its text.' }),
  }),
});

builder.mutationField('importMap', (t) =>
  t.field({
    type: MapRef,
    description:
      'A new map of the viewer from a file: one change of its history, one batch of events (MapCreated, then the nodes).',
    errors: { types: [ImportError, ValidationError, NotFoundError, ForbiddenError] },
    args: { input: t.arg({ type: ImportMapInput, required: true }) },
    resolve: (_root, { input }, ctx) => importMap(ctx.commands, ctx.notes, input),
  }),
);
