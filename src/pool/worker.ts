/**
 * The piscina worker: dist/worker.js, loaded by file name in each worker thread. One BatchRunner per
 * thread, so each worker keeps one Solver and its table memory for the whole run.
 */
import { type BatchReply, BatchRunner, type BatchTask } from './batch';

const runner = new BatchRunner();

export default function solveBatch(task: BatchTask): BatchReply {
  return runner.run(task, Infinity, true);
}
