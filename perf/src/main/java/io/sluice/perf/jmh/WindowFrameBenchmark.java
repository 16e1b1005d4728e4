package io.sluice.perf.jmh;

import static io.sluice.engine.expr.Expr.col;

import io.sluice.engine.exec.FrameBound;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.exec.Source;
import io.sluice.engine.exec.Window;
import io.sluice.engine.exec.WindowFrame;
import io.sluice.engine.exec.WindowFunction;
import io.sluice.engine.exec.WindowFunctionType;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.ColumnType;
import io.sluice.format.LongVector;
import io.sluice.shuffle.operator.Batch;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
 * The window operator computing SUM, MIN and MAX of one column over 1 Mi rows in 1 Ki partitions, one
 * sink state: the running frame (ROWS UNBOUNDED PRECEDING to CURRENT ROW, the group-by accumulators
 * merged forward) next to sliding frames ({@code FrameAggregation}: prefix sums and a monotonic deque)
 * of 7 and 201 rows and a RANGE of 10 key units; the sort into window order is in every case.
 * Rows per second; the sliding frames' cost should not grow with their width.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
public class WindowFrameBenchmark {
    private static final int ROWS = 1 << 20;
    private static final RowType INPUT = new RowType(List.of("p", "o", "v"),
            List.of(DataType.INT64, DataType.INT64, DataType.INT64));

    /** running, rows3 (3 PRECEDING to 3 FOLLOWING), rows100, range10 (10 PRECEDING to 10 FOLLOWING). */
    @Param({"running", "rows3", "rows100", "range10"})
    String frame;

    private final List<Batch> batches = new ArrayList<>();
    private List<WindowFunction> functions;

    @Setup
    public void generate() {
        final Random random = new Random(42);
        for (int from = 0; from < ROWS; from += Block.MAX_ROWS) {
            final int n = Math.min(Block.MAX_ROWS, ROWS - from);
            final long[] p = new long[n];
            final long[] o = new long[n];
            final long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                p[i] = random.nextInt(1024);
                o[i] = random.nextInt(100_000);
                v[i] = random.nextInt(1_000_000) - 500_000;
            }
            batches.add(Batch.of(new LongVector(ColumnType.INT64, p, n, null),
                    new LongVector(ColumnType.INT64, o, n, null), new LongVector(ColumnType.INT64, v, n, null)));
        }
        final WindowFrame f = switch (frame) {
            case "running" -> WindowFrame.ROWS_TO_CURRENT_ROW;
            case "rows3" -> WindowFrame.of(WindowFrame.Unit.ROWS, FrameBound.preceding(3), FrameBound.following(3));
            case "rows100" -> WindowFrame.of(WindowFrame.Unit.ROWS, FrameBound.preceding(100),
                    FrameBound.following(100));
            case "range10" -> WindowFrame.of(WindowFrame.Unit.RANGE, FrameBound.preceding(10),
                    FrameBound.following(10));
            default -> throw new IllegalArgumentException("unknown frame " + frame);
        };
        functions = List.of(WindowFunction.aggregate(WindowFunctionType.SUM, col("v"), f, "s"),
                WindowFunction.aggregate(WindowFunctionType.MIN, col("v"), f, "mn"),
                WindowFunction.aggregate(WindowFunctionType.MAX, col("v"), f, "mx"));
    }

    @Benchmark
    @org.openjdk.jmh.annotations.OperationsPerInvocation(ROWS)
    public int window() {
        final Window window = new Window(INPUT, List.of("p"), List.of(SortKey.asc("o")), functions, false);
        final Window.Rows rows = window.createLocal();
        for (final Batch b : batches) {
            rows.accept(b);
        }
        window.combine(rows);
        window.finish();
        final Source out = window.output();
        final int[] count = new int[1];
        final Source.Reader reader = out.openReader();
        for (int m = 0; m < out.morselCount(); m++) {
            reader.produce(m, b -> count[0] += b.rowCount());
        }
        return count[0];
    }
}
