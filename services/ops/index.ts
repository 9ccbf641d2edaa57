export { startOpsServer, type ReadinessCheck } from './startOpsServer.ts';
