export { startOpsServer, type ReadinessCheck } from './startOpsServer.ts';
export { readinessGauge } from './readinessGauge.ts';
