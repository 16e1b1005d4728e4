/**
 * Rows an operator cannot keep in memory, written to disk and read back: the process's
 * {@link io.sluice.engine.spill.SpillSpace} (a folder per process, named by its pid, whose stale siblings
 * of dead processes are removed), a query's {@link io.sluice.engine.spill.QuerySpill} (its files, counted,
 * all removed when the query ends, fails or is cancelled), and spill files as runs of batches
 * ({@link io.sluice.engine.spill.SpillWriter}, {@link io.sluice.engine.spill.SpillReader}): each batch in
 * the block layout under a CRC32C of its frame, so a file the disk changed is a
 * {@link io.sluice.engine.spill.SpillFileException} naming it, never wrong rows.
 *
 * <p>Depends on the format (the block layout) and the bucketing core's batch; not on the operators
 * that spill.
 */
package io.sluice.engine.spill;
