/** The typed API calls the browser tests make to change a map "from another place" (shared with the server's tests). */
export { attempt, call } from '@thinkingmap/client/testing';
