import { builder } from '../schema/builder.ts';

export const DependencyRef = builder.prismaObject('Dependency', {
  description: '`node` waits for `dependsOn` to be concluded.',
  fields: (t) => ({
    id: t.exposeID('id'),
    mapId: t.exposeID('mapId'),
    nodeId: t.exposeID('nodeId'),
    dependsOnId: t.exposeID('dependsOnId'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    node: t.relation('node'),
    dependsOn: t.relation('dependsOn'),
  }),
});

export const ContextItemRef = builder.prismaObject('ContextItem', {
  description: 'Context the person added to a node for agents to consider.',
  fields: (t) => ({
    id: t.exposeID('id'),
    nodeId: t.exposeID('nodeId'),
    title: t.exposeString('title'),
    content: t.exposeString('content'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
