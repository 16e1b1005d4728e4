package io.sluice.perf.jmh;

import io.sluice.engine.exec.BatchConsumer;
import io.sluice.engine.exec.HashJoinBuild;
import io.sluice.engine.exec.HashJoinProbe;
import io.sluice.engine.exec.JoinHashTable;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.Operator;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * The hash join operators on one core, in rows per second: {@link #build} collects
 * {@code buildRows} rows of (key, payload) into a {@link HashJoinBuild} and builds its table
 * (its {@code :rows} result is build rows per second);
 * {@link #probe} pushes 8192-row batches of (key, payload) through a {@link HashJoinProbe} inner
 * join against a table built once, every probe key matching one build row, into a consumer that
 * only counts rows. {@code keys=dense} draws the build keys from {@code [0, buildRows)} (the
 * direct lookup: no hashing), {@code keys=sparse} spreads them over 2^40 (the hashed key table).
 * Build and probe rows arrive in random key order.
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
public class HashJoinBenchmark {
    static final int PROBE_BATCHES = 16;
    static final RowType BUILD = new RowType(List.of("bk", "bv"), List.of(DataType.INT64, DataType.INT64));
    static final RowType PROBE = new RowType(List.of("pk", "pv"), List.of(DataType.INT64, DataType.INT64));
    static final long SPARSE_SPAN = 1L << 40;

    /** Build rows, one per distinct key. */
    @Param({"65536", "1048576"})
    int buildRows;

    /** {@code dense} (direct lookup) or {@code sparse} (hashed) build keys. */
    @Param({"dense", "sparse"})
    String keys;

    /** Build rows consumed, reported by JMH as a rate next to {@link #build}. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Rows {
        public long rows;

        @Setup(Level.Iteration)
        public void reset() {
            rows = 0;
        }
    }

    List<Batch> buildBatches;
    Batch[] probeBatches;
    Operator probe;
    long rowsOut;

    @Setup
    public void setup() {
        final SplittableRandom random = new SplittableRandom(17);
        final long[] buildKeys = new long[buildRows];
        for (int i = 0; i < buildRows; i++) {
            buildKeys[i] = keys.equals("dense") ? i : random.nextLong(SPARSE_SPAN);
        }
        for (int i = buildRows - 1; i > 0; i--) {
            final int j = random.nextInt(i + 1);
            final long t = buildKeys[i];
            buildKeys[i] = buildKeys[j];
            buildKeys[j] = t;
        }
        buildBatches = new ArrayList<>();
        for (int from = 0; from < buildRows; from += BenchmarkData.ROWS) {
            final int n = Math.min(BenchmarkData.ROWS, buildRows - from);
            final long[] k = new long[n];
            final long[] v = new long[n];
            for (int r = 0; r < n; r++) {
                k[r] = buildKeys[from + r];
                v[r] = random.nextLong();
            }
            buildBatches.add(Batch.of(LongVector.ofInt64(k), LongVector.ofInt64(v)));
        }
        probeBatches = new Batch[PROBE_BATCHES];
        for (int b = 0; b < PROBE_BATCHES; b++) {
            final long[] k = new long[BenchmarkData.ROWS];
            final long[] v = new long[BenchmarkData.ROWS];
            for (int r = 0; r < BenchmarkData.ROWS; r++) {
                k[r] = buildKeys[random.nextInt(buildRows)];
                v[r] = random.nextLong();
            }
            probeBatches[b] = Batch.of(LongVector.ofInt64(k), LongVector.ofInt64(v));
        }
        final HashJoinBuild built = build(buildBatches);
        final BatchConsumer counter = batch -> rowsOut += batch.rowCount();
        probe = new HashJoinProbe(PROBE, List.of(Expr.col("pk")), built, JoinType.INNER, null).create(counter);
    }

    private static HashJoinBuild build(final List<Batch> batches) {
        final HashJoinBuild build = new HashJoinBuild(BUILD, List.of(Expr.col("bk")));
        final HashJoinBuild.Rows local = build.createLocal();
        for (final Batch b : batches) {
            local.accept(b);
        }
        build.combine(local);
        build.finish();
        return build;
    }

    /** Collects the build rows and builds the table; {@code build:rows} is build rows per second. */
    @Benchmark
    public JoinHashTable build(final Rows rows) {
        rows.rows += buildRows;
        return build(buildBatches).table(0);
    }

    /** Probes {@value #PROBE_BATCHES} batches of 8192 rows: the score is probe rows per second. */
    @Benchmark
    @OperationsPerInvocation(PROBE_BATCHES * BenchmarkData.ROWS)
    public long probe() {
        for (final Batch batch : probeBatches) {
            probe.accept(batch);
        }
        return rowsOut;
    }
}
