export { type App, type AppOptions, buildApp } from './app.ts';
export { createUserWithToken, issueToken } from './auth/tokens.ts';
export type { CommandContext } from './commands/context.ts';
export type { MapEvent, MapEventType } from './commands/map-event.ts';
export { loadWebHandler, type WebHandler } from './http/web-handler.ts';
export { readDashboard } from './ops/read-dashboard.ts';
export { replyToQuestion } from './runs/reply-to-question.ts';
export { processNode, startDivergent } from './runs/start-runs.ts';
