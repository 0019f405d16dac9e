/**
 * The job record every workload source (SWF traces, synthetic models) produces
 * and every scheduler consumes. Times are in seconds; memory is KB per
 * processor, as in the Standard Workload Format (SWF). Optional fields are
 * absent when unknown (SWF writes them as -1).
 */
export interface WorkloadJob {
  /** Job number (SWF field 1). */
  id: number;
  /** Submit time, seconds from the start of the log (field 2). */
  submit: number;
  /** Actual run time in seconds (field 4). */
  runtime: number;
  /** Number of allocated processors (field 5). */
  procs: number;
  /** User runtime estimate / limit, seconds (field 9): what backfilling uses. */
  requestedTime?: number;
  /** Requested number of processors (field 8). */
  requestedProcs?: number;
  /** Used memory, KB per processor (field 7). */
  usedMemory?: number;
  /** Requested memory, KB per processor (field 10). */
  requestedMemory?: number;
  /** Average CPU time used per processor, seconds (field 6). */
  avgCpuTime?: number;
  /** User id (field 12). */
  userId?: number;
  /** Status (field 11): 1 completed, 0 failed, 5 cancelled. */
  status?: number;
  /** Queue number (field 15); the Lublin model writes 1 = batch, 0 = interactive. */
  queue?: number;
}
