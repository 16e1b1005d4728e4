package io.sluice.perf.jmh;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.exec.AggregateFunction;
import io.sluice.engine.exec.Cancellation;
import io.sluice.engine.exec.Filter;
import io.sluice.engine.exec.HashAggregate;
import io.sluice.engine.exec.MaterializedSource;
import io.sluice.engine.exec.Pipeline;
import io.sluice.engine.exec.PipelineExecutor;
import io.sluice.engine.exec.PipelineProfile;
import io.sluice.engine.exec.Projection;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What EXPLAIN ANALYZE's per-step counting ({@link PipelineProfile}: a row count and two clock reads per
 * batch and step) costs a pipeline, in rows per second on one worker: a filter, a projection and a
 * hash aggregation over 8192-row batches, run with {@code profiled} counting and without.
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
public class PipelineProfileBenchmark {
    static final int BATCHES = 32;
    static final RowType INPUT = new RowType(List.of("k", "v"), List.of(DataType.INT64, DataType.INT64));

    /** Whether the run counts each step's rows and time. */
    @Param({"false", "true"})
    boolean profiled;

    List<Batch> batches;
    PipelineExecutor executor;

    @Setup
    public void setup() {
        final SplittableRandom random = new SplittableRandom(7);
        batches = new ArrayList<>();
        for (int b = 0; b < BATCHES; b++) {
            final long[] k = new long[BenchmarkData.ROWS];
            final long[] v = new long[BenchmarkData.ROWS];
            for (int r = 0; r < BenchmarkData.ROWS; r++) {
                k[r] = random.nextInt(1024);
                v[r] = random.nextLong(1_000_000);
            }
            batches.add(Batch.of(LongVector.ofInt64(k), LongVector.ofInt64(v)));
        }
        executor = new PipelineExecutor(1);
    }

    @TearDown
    public void close() {
        executor.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCHES * BenchmarkData.ROWS)
    public Object filterProjectAggregate() {
        final Filter filter = new Filter(INPUT, Expr.gt(Expr.col("v"), Expr.lit(250_000L)));
        final List<NamedExpr> items = List.of(NamedExpr.column("k"), new NamedExpr("w", Expr.col("v")));
        final Projection project = new Projection(INPUT, items);
        final HashAggregate aggregate = new HashAggregate(project.outputType(), List.of(NamedExpr.column("k")),
                List.of(new Aggregate(AggregateFunction.SUM, Expr.col("w"), "s")));
        final Pipeline p = new Pipeline("bench", new MaterializedSource(INPUT, () -> batches, false),
                List.of(filter, project), aggregate, List.of());
        executor.run(List.of(p), Cancellation.never(), profiled ? new PipelineProfile() : null);
        return aggregate;
    }
}
