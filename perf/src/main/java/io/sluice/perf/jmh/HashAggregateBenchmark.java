package io.sluice.perf.jmh;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.exec.AggregateFunction;
import io.sluice.engine.exec.HashAggregate;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Hash aggregation on one core, in rows per second: {@code sum(v), count(*) group by k} over
 * 8192-row batches whose keys take {@code groups} distinct values (spread over 2^40, in random
 * order). {@link #update} feeds a worker's table that already holds every group (the steady state:
 * look up, add); {@link #fresh} feeds a new table each time (inserting the groups, growing the
 * table) and reads the groups out, as one worker of a merge group does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true",
        "-Xms2g", "-Xmx2g"})
public class HashAggregateBenchmark {
    static final int BATCHES = 16;
    static final RowType INPUT = new RowType(List.of("k", "v"), List.of(DataType.INT64, DataType.INT64));

    /** Distinct group keys. */
    @Param({"1024", "131072"})
    int groups;

    Batch[] batches;
    HashAggregate aggregate;
    HashAggregate.Groups steady;

    @Setup
    public void setup() {
        final SplittableRandom random = new SplittableRandom(23);
        final long[] distinct = new long[groups];
        for (int g = 0; g < groups; g++) {
            distinct[g] = random.nextLong(1L << 40);
        }
        batches = new Batch[BATCHES];
        for (int b = 0; b < BATCHES; b++) {
            final long[] k = new long[BenchmarkData.ROWS];
            final long[] v = new long[BenchmarkData.ROWS];
            for (int r = 0; r < BenchmarkData.ROWS; r++) {
                // Every group appears in the first pass when there are no more groups than rows.
                final int row = b * BenchmarkData.ROWS + r;
                k[r] = distinct[row < groups ? row : random.nextInt(groups)];
                v[r] = random.nextLong(1_000_000);
            }
            batches[b] = Batch.of(LongVector.ofInt64(k), LongVector.ofInt64(v));
        }
        aggregate = new HashAggregate(INPUT, List.of(NamedExpr.column("k")),
                List.of(new Aggregate(AggregateFunction.SUM, Expr.col("v"), "s"),
                        new Aggregate(AggregateFunction.COUNT_STAR, null, "n")));
        steady = aggregate.createLocal();
        for (final Batch batch : batches) {
            steady.accept(batch);
        }
    }

    /** Adds the rows to a table that holds all their groups. */
    @Benchmark
    @OperationsPerInvocation(BATCHES * BenchmarkData.ROWS)
    public HashAggregate.Groups update() {
        for (final Batch batch : batches) {
            steady.accept(batch);
        }
        return steady;
    }

    /** Aggregates the rows into a new table, then reads its groups out as batches. */
    @Benchmark
    @OperationsPerInvocation(BATCHES * BenchmarkData.ROWS)
    public Object fresh() {
        final HashAggregate sink = new HashAggregate(INPUT, List.of(NamedExpr.column("k")),
                List.of(new Aggregate(AggregateFunction.SUM, Expr.col("v"), "s"),
                        new Aggregate(AggregateFunction.COUNT_STAR, null, "n")));
        final HashAggregate.Groups local = sink.createLocal();
        for (final Batch batch : batches) {
            local.accept(batch);
        }
        sink.combine(local);
        sink.finish();
        return sink.output();
    }
}
