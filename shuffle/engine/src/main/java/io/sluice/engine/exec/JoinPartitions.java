package io.sluice.engine.exec;

import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.spill.SpillReader;
import io.sluice.engine.spill.SpillRun;
import io.sluice.engine.spill.SpillWriter;
import io.sluice.format.Block;
import io.sluice.shuffle.operator.Batch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The build rows of one join table that did not all fit in memory, split by the hash of their keys into
 * {@link SpillPartitions#FANOUT} level-0 partitions (a grace hash join): the partitions that fit are in
 * the table the probe meets as it streams; the others are on disk, and the probe writes its rows of those
 * partitions to disk too, to join them partition by partition at the end of its input
 * ({@link HashJoinProbe}). Rows of one key are in one partition, so each partition joins on its own.
 *
 * @see #resolve
 */
final class JoinPartitions {
    private final boolean[] onDisk;
    private final List<List<SpillRun>> runs;
    private final long rows;
    private final boolean nullKey;

    private JoinPartitions(final boolean[] onDisk, final List<List<SpillRun>> runs, final long rows,
                           final boolean nullKey) {
        this.onDisk = onDisk;
        this.runs = runs;
        this.rows = rows;
        this.nullKey = nullKey;
    }

    /** Whether level-0 partition {@code p}'s build rows are on disk, not in the table. */
    boolean onDisk(final int p) {
        return onDisk[p];
    }

    /** The spill files of level-0 partition {@code p}'s build rows (none unless {@link #onDisk}). */
    List<SpillRun> runs(final int p) {
        return runs.get(p);
    }

    /** Build rows on disk. */
    long rows() {
        return rows;
    }

    /** Whether some build row of the build (on disk or not) has a NULL in a key column. */
    boolean sawNullKey() {
        return nullKey;
    }

    /** The workers' rows of one table, as the build hands them over: in memory and on disk. */
    record Collected(List<Batch> batches, long bytes, List<List<SpillRun>> runs, boolean nullKey) {
        /** Whether some rows went to disk. */
        boolean spilled() {
            return runs != null;
        }

        /** Every spill file, of every partition. */
        List<SpillRun> allRuns() {
            final List<SpillRun> all = new ArrayList<>();
            if (runs != null) {
                runs.forEach(all::addAll);
            }
            return all;
        }
    }

    /** The table and, when some partitions stayed on disk, those partitions. */
    record Resolved(JoinHashTable table, JoinPartitions spilled) {
    }

    /** Closes the workers' spill files and gathers their rows. */
    static Collected collect(final List<JoinBuildRows> parts) {
        final List<Batch> batches = new ArrayList<>();
        long bytes = 0;
        List<List<SpillRun>> runs = null;
        boolean nullKey = false;
        for (final JoinBuildRows part : parts) {
            batches.addAll(part.batches());
            bytes += part.bytes();
            nullKey |= part.sawNullKey();
            final List<List<SpillRun>> spilled = part.finish();
            if (spilled != null) {
                if (runs == null) {
                    runs = new ArrayList<>();
                    for (int p = 0; p < SpillPartitions.FANOUT; p++) {
                        runs.add(new ArrayList<>());
                    }
                }
                for (int p = 0; p < SpillPartitions.FANOUT; p++) {
                    runs.get(p).addAll(spilled.get(p));
                }
            }
        }
        return new Collected(batches, bytes, runs, nullKey);
    }

    /**
     * Builds the table of the rows collected. When they fit (nothing spilled and the table's own memory is
     * given) it is one table of every row, as without spilling; else the rows are split by level-0
     * partition and the partitions taken into the table in order while they fit in half of what the query's
     * budget has left (the other half is for the partitions joined later, one at a time), the rest written
     * to disk. With spilling off, a table refused its memory fails with the named error.
     */
    static Resolved resolve(final QueryMemory.Operator memory, final RowType input, final List<Expr> keys,
                            final boolean withColumns, final Collected rows) {
        final long tableBytes = JoinHashTable.bytesPerRow() * PartitionedHashJoinBuild.rows(rows.batches());
        if (!rows.spilled()) {
            if (memory.tryReserve(tableBytes)) {
                return new Resolved(JoinHashTable.build(input, keys, rows.batches(), withColumns), null);
            }
            if (!memory.spills()) {
                // The named error, unless another worker gave memory back since.
                memory.reserve(tableBytes);
                return new Resolved(JoinHashTable.build(input, keys, rows.batches(), withColumns), null);
            }
        }
        final boolean[] nullKey = {rows.nullKey()};
        final List<List<Batch>> inMemory = split(keys, input, rows.batches(), nullKey);
        memory.release(rows.bytes());
        final List<List<SpillRun>> runs = new ArrayList<>();
        for (int p = 0; p < SpillPartitions.FANOUT; p++) {
            runs.add(rows.spilled() ? new ArrayList<>(rows.runs().get(p)) : new ArrayList<>());
        }
        final long limit = Math.max(0, memory.queryBudget() - memory.queryReserved()) / 2;
        final boolean[] onDisk = new boolean[SpillPartitions.FANOUT];
        final List<Batch> resident = new ArrayList<>();
        long used = 0;
        long rowsOnDisk = 0;
        for (int p = 0; p < SpillPartitions.FANOUT; p++) {
            final List<Batch> batches = inMemory.get(p);
            long partitionRows = 0;
            long cost = 0;
            for (final Batch b : batches) {
                partitionRows += b.rowCount();
                cost += QueryMemory.bytesOf(b);
            }
            for (final SpillRun run : runs.get(p)) {
                partitionRows += run.rows();
                cost += run.valueBytes();
            }
            cost += JoinHashTable.bytesPerRow() * partitionRows;
            if (used + cost <= limit && memory.tryReserve(cost)) {
                used += cost;
                resident.addAll(batches);
                for (final SpillRun run : runs.get(p)) {
                    readInto(run, resident);
                    delete(run);
                }
                runs.get(p).clear();
                continue;
            }
            onDisk[p] = true;
            rowsOnDisk += partitionRows;
            if (!batches.isEmpty()) {
                final SpillWriter writer = memory.spillWriter();
                for (final Batch b : batches) {
                    writer.write(b);
                }
                runs.get(p).add(memory.spilled(writer.finish()));
            }
            batches.clear();
        }
        final JoinHashTable table = JoinHashTable.build(input, keys, resident, withColumns);
        return new Resolved(table, rowsOnDisk == 0 ? null : new JoinPartitions(onDisk, runs, rowsOnDisk, nullKey[0]));
    }

    /**
     * The rows of the batches by level-0 partition of their key hash; sets {@code nullKey[0]} when a row has a
     * NULL in a key column.
     */
    private static List<List<Batch>> split(final List<Expr> keys, final RowType input, final List<Batch> batches,
                                           final boolean[] nullKey) {
        final List<List<Batch>> out = new ArrayList<>(SpillPartitions.FANOUT);
        for (int p = 0; p < SpillPartitions.FANOUT; p++) {
            out.add(new ArrayList<>());
        }
        final KeyColumns keyColumns = new KeyColumns(keys, input);
        final int[] partitionOf = new int[Block.MAX_ROWS];
        final int[] rows = new int[Block.MAX_ROWS];
        final int[] counts = new int[SpillPartitions.FANOUT];
        int spread = 0;
        for (final Batch b : batches) {
            final int n = b.rowCount();
            if (n == 0) {
                continue;
            }
            keyColumns.evaluate(b);
            nullKey[0] |= keyColumns.anyNull() != null;
            Arrays.fill(counts, 0);
            for (int i = 0; i < n; i++) {
                // A NULL key matches nothing: such rows go round the partitions, not all to NULL's.
                partitionOf[i] = keyColumns.hasNull(i) ? spread++ & (SpillPartitions.FANOUT - 1)
                        : SpillPartitions.partition(keyColumns.hashes[i], 0);
                counts[partitionOf[i]]++;
            }
            for (int p = 0; p < SpillPartitions.FANOUT; p++) {
                if (counts[p] == 0) {
                    continue;
                }
                int m = 0;
                for (int i = 0; i < n; i++) {
                    if (partitionOf[i] == p) {
                        rows[m++] = i;
                    }
                }
                out.get(p).add(Vectors.select(b, rows, m));
            }
        }
        return out;
    }

    /** Appends every batch of a spill file to {@code into}. */
    static void readInto(final SpillRun run, final List<Batch> into) {
        try (SpillReader reader = run.open()) {
            for (Batch b = reader.next(); b != null; b = reader.next()) {
                into.add(b);
            }
        }
    }

    /** Removes a spill file read for the last time; the query's folder goes when it ends in any case. */
    static void delete(final SpillRun run) {
        try {
            Files.deleteIfExists(run.file());
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot remove the spill file " + run.file() + " that a join read", e);
        }
    }
}
