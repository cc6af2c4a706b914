import { ERROR_FIELDS } from './fragments.ts';
import { graphql } from './graphql.ts';

/** What a consultation panel shows: messages, plan and step, progress, records and notes. */
export const CONSULTATION_FIELDS = graphql(`
  fragment ConsultationFields on Consultation {
    id
    mapId
    stage
    strategy
    understandingRun {
      id
      status
    }
    understandingQuestion {
      requestId
      runId
      kind
      question
      context
      status
    }
    proposals {
      id
      nodeId
      status
      questions {
        requestId
        kind
        status
        context
      }
    }
    plan
    currentStep
    context
    summary
    busy
    failureCode
    failureReason
    logs {
      at
      text
    }
    messages {
      id
      role
      text
      planned
      answersId
      compressed
    }
    records {
      id
      kind
      content
      sourceMessageId
      version
    }
    notes {
      path
      size
      downloadUrl
    }
  }
`);

/** Opens a consultation on a map (or without one: NEEDS_PROBLEM), with its strategy for messages sent while a turn runs. */
export const START_CONSULTATION = graphql(
  `
  mutation StartConsultation($input: StartConsultationInput!) {
    startConsultation(input: $input) {
      __typename
      ... on Consultation {
        ...ConsultationFields
      }
      ...ErrorFields
    }
  }
`,
  [CONSULTATION_FIELDS, ERROR_FIELDS],
);

/** Sends the person's message; the answer follows on the map's feed. */
export const SEND_CONSULTATION_MESSAGE = graphql(
  `
  mutation SendConsultationMessage($input: SendConsultationMessageInput!) {
    sendConsultationMessage(input: $input) {
      __typename
      ... on SentConsultationMessage {
        messageId
        consultation {
          id
          mapId
          stage
        }
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** A consultation, whole. */
export const CONSULTATION = graphql(
  `
  query Consultation($id: ID!) {
    consultation(id: $id) {
      __typename
      ... on Consultation {
        ...ConsultationFields
      }
      ...ErrorFields
    }
  }
`,
  [CONSULTATION_FIELDS, ERROR_FIELDS],
);

/** Changes what a message sent while a turn runs does (INTERRUPT, ENQUEUE, REJECT), from the next message on. */
export const SET_CONSULTATION_STRATEGY = graphql(
  `
  mutation SetConsultationStrategy($input: SetConsultationStrategyInput!) {
    setConsultationStrategy(input: $input) {
      __typename
      ... on Consultation {
        id
        strategy
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** One note's Markdown. */
export const CONSULTATION_NOTE = graphql(
  `
  query ConsultationNote($id: ID!, $path: String!) {
    consultationNote(consultationId: $id, path: $path) {
      __typename
      ... on ConsultationNoteContent {
        content
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** The person edits a record. */
export const UPDATE_CONSULTATION_RECORD = graphql(
  `
  mutation UpdateConsultationRecord($input: UpdateConsultationRecordInput!) {
    updateConsultationRecord(input: $input) {
      __typename
      ... on ConsultationRecord {
        id
        kind
        content
        version
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** The person deletes a record. */
export const DELETE_CONSULTATION_RECORD = graphql(
  `
  mutation DeleteConsultationRecord($id: ID!) {
    deleteConsultationRecord(id: $id) {
      __typename
      ... on DeletedConsultationRecord {
        id
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** What the list of a map's consultations shows of each (light: the list's cost stays within the API's limit). */
export const CONSULTATION_SUMMARY_FIELDS = graphql(`
  fragment ConsultationSummaryFields on Consultation {
    id
    strategy
    busy
    plan
    currentStep
  }
`);

/** A map's consultations, newest first (the consultation panel's list). */
export const CONSULTATIONS = graphql(
  `
  query Consultations($mapId: ID!) {
    consultations(mapId: $mapId) {
      __typename
      ... on QueryConsultationsSuccess {
        data {
          ...ConsultationSummaryFields
        }
      }
      ...ErrorFields
    }
  }
`,
  [CONSULTATION_SUMMARY_FIELDS, ERROR_FIELDS],
);

/** What a map's export carries of its consultations: their records (the newest consultation first). */
export const MAP_CONSULTATION_RECORDS = graphql(
  `
  query MapConsultationRecords($mapId: ID!) {
    consultations(mapId: $mapId) {
      __typename
      ... on QueryConsultationsSuccess {
        data {
          id
          records {
            id
            kind
            content
            sourceMessageId
          }
        }
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);

/** A map's notes with their Markdown (what its export carries). */
export const MAP_NOTES = graphql(
  `
  query MapNotes($mapId: ID!) {
    map(id: $mapId) {
      __typename
      ... on Map {
        id
        notes {
          path
          content
        }
      }
      ...ErrorFields
    }
  }
`,
  [ERROR_FIELDS],
);
