// The workspace is a client-side app over the GraphQL API on the same origin: no server rendering.
export const ssr = false;
export const prerender = false;
