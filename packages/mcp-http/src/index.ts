export { refuseJsonRpc, type StatelessMcpOptions, serveStatelessMcp } from './serve-stateless-mcp.ts';
