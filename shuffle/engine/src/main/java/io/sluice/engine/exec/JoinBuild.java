package io.sluice.engine.exec;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import java.util.List;

/**
 * A finished join build as {@link HashJoinProbe} sees it: one hash table for every probe batch
 * (broadcast, {@link HashJoinBuild}) or one per shuffle bucket, chosen by the probe batch's
 * {@code shuffleIdx} ({@link PartitionedHashJoinBuild}).
 */
public interface JoinBuild {
    /** The build columns. */
    RowType rowType();

    /** The build key expressions. */
    List<Expr> keys();

    /** Key types, for checking that probe keys match. */
    default DataType[] keyTypes() {
        return new KeyColumns(keys(), rowType()).types();
    }

    /**
     * Whether the build is empty, over every bucket this build holds: for a null-aware anti join,
     * whose build must hold every build row of the query (a broadcast or gathered build), valid after
     * the build finished.
     */
    boolean empty();

    /** Whether some build row has a NULL key, over every bucket this build holds (see {@link #empty}). */
    boolean sawNullKey();

    /** The table probe rows of a bucket meet ({@code shuffleIdx} of the probe batch; ignored by a broadcast build). */
    JoinHashTable table(int shuffleIdx);

    /** Tables this build holds: one per bucket of a partitioned build, {@link #table} of 0 to this minus 1; one when broadcast. */
    int tableCount();

    /** Whether each table is one bucket's ({@link #table} of a bucket), not one table for every probe row. */
    boolean partitioned();

    /**
     * The partitions of {@link #table}'s build rows that stayed on disk (a grace hash join past the query's
     * memory budget), or null when every build row is in the table.
     */
    JoinPartitions spilled(int shuffleIdx);

    /** The query's accounting of this join, which its probe's spill files count to as well. */
    QueryMemory.Operator memory();

    /** Whether the tables keep the build columns, not only the keys (see {@link HashJoinBuild}). */
    boolean withColumns();

    /**
     * Gives the tables' memory back to the query once the one probe that meets them ended (its pipeline
     * finished, or the right semi or anti join's rows were taken out); the tables are gone after it.
     */
    void release();
}
