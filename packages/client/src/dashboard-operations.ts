import { ERROR_FIELDS } from './fragments.ts';
import { graphql } from './graphql.ts';

/** A run on the dashboard: its map, node, status and the step it is in. */
export const DASHBOARD_RUN_FIELDS = graphql(`
  fragment DashboardRunFields on DashboardRun {
    id
    mapId
    mapTitle
    nodeId
    nodeQuestion
    agent
    status
    step
    startedAt
  }
`);

/** The viewer's overview of all their maps, over the last `days` UTC days (or `from`–`to`). */
export const DASHBOARD = graphql(
  `
  query Dashboard($days: Int, $from: DateTime, $to: DateTime) {
    dashboard(days: $days, from: $from, to: $to) {
      __typename
      ... on QueryDashboardSuccess {
        data {
          from
          to
          mapsByStatus { status count }
          nodesByStatus { status count }
          runsInFlight { ...DashboardRunFields }
          runsWaiting { ...DashboardRunFields }
          questions {
            requestId
            runId
            kind
            question
            mapId
            mapTitle
            nodeId
            nodeQuestion
            askedAt
            expiresAt
          }
          tokensByDay { day promptTokens completionTokens estimated }
          tokensByMap { mapId mapTitle promptTokens completionTokens estimated }
          errorsByCode { code count }
          recentErrors { runId mapId mapTitle nodeId code error at }
        }
      }
      ...ErrorFields
    }
  }
`,
  [DASHBOARD_RUN_FIELDS, ERROR_FIELDS],
);
