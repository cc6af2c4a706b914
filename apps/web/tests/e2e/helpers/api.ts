import type { Client, DocumentInput } from '@urql/core';

/** Runs a query or mutation from the test and returns its single root field; any error fails the test. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the operation selected
export async function call<T = Record<string, any>>(
  client: Client,
  document: DocumentInput,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const isMutation = (document as unknown as { definitions: { operation?: string }[] }).definitions.some(
    (d) => d.operation === 'mutation',
  );
  const result = isMutation
    ? await client.mutation(document, variables).toPromise()
    : await client.query(document, variables).toPromise();
  if (result.error) throw new Error(`GraphQL error: ${result.error.message}`);
  const value = Object.values(result.data as Record<string, unknown>)[0] as T & { code?: string; message?: string };
  if (value && typeof value === 'object' && 'code' in value && 'message' in value)
    throw new Error(`API refused: ${value.code} ${value.message}`);
  return value;
}
