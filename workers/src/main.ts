import { startWorkerProcess } from '@fieldmarket/backend/worker';

await startWorkerProcess();
