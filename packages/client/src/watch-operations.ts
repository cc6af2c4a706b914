import { graphql } from './graphql.ts';

/** Every agent graph's topology, as the run view draws it. */
export const AGENT_GRAPHS = graphql(`
  query AgentGraphs {
    agentGraphs {
      name
      nodes {
        id
        kind
        interrupt
      }
      edges {
        source
        target
        conditional
        label
      }
      interruptPoints
    }
  }
`);
