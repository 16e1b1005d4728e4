package io.sluice.perf.jmh;

import static io.sluice.engine.expr.Expr.col;

import io.sluice.engine.exec.BatchConsumer;
import io.sluice.engine.exec.HashJoinBuild;
import io.sluice.engine.exec.HashJoinProbe;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.NestedLoopJoinBuild;
import io.sluice.engine.exec.NestedLoopJoinProbe;
import io.sluice.engine.exec.Operator;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A join without equality keys on one core, in milliseconds per {@value #PROBE_BATCHES} probe
 * batches of 8192 rows against {@code buildRows} build rows of ranges, condition
 * {@code lo <= x AND x < hi} (each probe row in about one range): {@link #nestedLoop} through a
 * {@link NestedLoopJoinProbe}, {@link #constantKeyHashJoin} the way such joins ran before, a
 * {@link HashJoinProbe} on a constant key 0 = 0 whose extra condition filters the pairs. Both
 * count the joined rows they emit (the same number).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true",
        "-Xms2g", "-Xmx2g"})
public class NestedLoopJoinBenchmark {
    static final int PROBE_BATCHES = 4;
    static final RowType PROBE = new RowType(List.of("x", "pv"), List.of(DataType.INT64, DataType.INT64));
    static final RowType BUILD = new RowType(List.of("lo", "hi"), List.of(DataType.INT64, DataType.INT64));
    static final Expr CONDITION = Expr.and(Expr.le(col("lo"), col("x")), Expr.lt(col("x"), col("hi")));

    /** Build rows: ranges of width 1000 over [0, buildRows * 1000). */
    @Param({"16", "256"})
    int buildRows;

    Batch[] probeBatches;
    Operator nestedLoop;
    Operator hashJoin;
    long rowsOut;

    @Setup
    public void setup() {
        final SplittableRandom random = new SplittableRandom(23);
        final long[] lo = new long[buildRows];
        final long[] hi = new long[buildRows];
        for (int i = 0; i < buildRows; i++) {
            lo[i] = i * 1000L;
            hi[i] = lo[i] + 1000;
        }
        final Batch build = Batch.of(LongVector.ofInt64(lo), LongVector.ofInt64(hi));
        probeBatches = new Batch[PROBE_BATCHES];
        for (int b = 0; b < PROBE_BATCHES; b++) {
            final long[] x = new long[BenchmarkData.ROWS];
            final long[] v = new long[BenchmarkData.ROWS];
            for (int r = 0; r < BenchmarkData.ROWS; r++) {
                x[r] = random.nextLong(buildRows * 1000L);
                v[r] = random.nextLong();
            }
            probeBatches[b] = Batch.of(LongVector.ofInt64(x), LongVector.ofInt64(v));
        }
        final BatchConsumer counter = batch -> rowsOut += batch.rowCount();
        final NestedLoopJoinBuild nl = new NestedLoopJoinBuild(BUILD);
        final NestedLoopJoinBuild.Rows nlRows = nl.createLocal();
        nlRows.accept(build);
        nl.combine(nlRows);
        nl.finish();
        nestedLoop = new NestedLoopJoinProbe(PROBE, nl, JoinType.INNER, CONDITION).create(counter);
        // The former plan of a keyless join: both sides extended by a constant key k = 0.
        final RowType keyedBuild = BUILD.concat(new RowType(List.of("bk"), List.of(DataType.INT64)));
        final HashJoinBuild hash = new HashJoinBuild(keyedBuild, List.of(col("bk")), true);
        final HashJoinBuild.Rows hashRows = hash.createLocal();
        hashRows.accept(Batch.of(build.column(0), build.column(1), LongVector.ofInt64(new long[buildRows])));
        hash.combine(hashRows);
        hash.finish();
        hashJoin = new HashJoinProbe(PROBE, List.of(Expr.lit(0)), hash, JoinType.INNER, CONDITION).create(counter);
    }

    /** The nested-loop join of {@value #PROBE_BATCHES} probe batches. */
    @Benchmark
    public long nestedLoop() {
        rowsOut = 0;
        for (final Batch b : probeBatches) {
            nestedLoop.accept(b);
        }
        return rowsOut;
    }

    /** The same pairs through a hash join on a constant key with the condition as its extra term. */
    @Benchmark
    public long constantKeyHashJoin() {
        rowsOut = 0;
        for (final Batch b : probeBatches) {
            hashJoin.accept(b);
        }
        return rowsOut;
    }
}
