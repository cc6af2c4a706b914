/** Whether a JSON value the API sends (a question's context, a decision's choice, metadata) is an object. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** A JSON value as an object to read fields from: an empty one when it is not an object. */
export const recordOf = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});
