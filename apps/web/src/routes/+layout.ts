// The workspace is a client-side app over the GraphQL API on the same origin: no server rendering.
export const ssr = false;
export const prerender = false;

// When the app's code starts running (its one script loaded and evaluated), for the browser test's figures.
if (typeof performance !== 'undefined') performance.mark('tm:app');
