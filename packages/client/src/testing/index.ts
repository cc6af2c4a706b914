export { attempt, call, raw } from './call.ts';
