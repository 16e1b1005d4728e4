package io.sluice.perf.jmh;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.ColumnType;
import io.sluice.format.IntVector;
import io.sluice.format.StringVector;
import io.sluice.shuffle.operator.Batch;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Iterator;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Two hot predicates on one core, in rows per second, each next to the loop it replaced in the same
 * run: TPC-H Q13's {@code o_comment LIKE '%special%requests%'} over 8192-row batches of plain
 * o_comment strings from the TPC-H generator ({@link #like}; {@link #likeByteByByte} is the former
 * byte-by-byte search), and Q3's {@code l_shipdate > DATE '1995-03-15'} over a date column
 * stored as ints, dates drawn uniformly from TPC-H's ship dates ({@link #dateAfter}, comparing ints
 * with an int constant; {@link #dateAfterWidened} compares each int widened to a long with a long
 * constant, as before). Past measurements are in CHANGELOG.md.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-Dchronicle.analytics.disable=true"})
public class ExpressionBenchmark {
    static final int ROWS = 8192;
    static final int BATCHES = 16;
    static final String PATTERN = "%special%requests%";
    static final RowType TYPE = new RowType(List.of("o_comment", "l_shipdate"),
            List.of(DataType.STRING, DataType.DATE));

    Batch[] batches;
    Evaluator like;
    Evaluator dateAfter;
    byte[][] parts;
    int cutoff;
    boolean[] out;
    int next;

    @Setup
    public void setUp() {
        final Iterator<Order> orders = new OrderGenerator(0.1, 1, 1).iterator();
        final SplittableRandom random = new SplittableRandom(7);
        final int first = (int) LocalDate.parse("1992-01-02").toEpochDay();
        final int last = (int) LocalDate.parse("1998-12-01").toEpochDay();
        batches = new Batch[BATCHES];
        int matches = 0;
        for (int b = 0; b < BATCHES; b++) {
            final String[] comments = new String[ROWS];
            final int[] dates = new int[ROWS];
            for (int i = 0; i < ROWS; i++) {
                comments[i] = orders.next().getComment();
                matches += comments[i].matches(".*special.*requests.*") ? 1 : 0;
                dates[i] = first + random.nextInt(last - first + 1);
            }
            batches[b] = Batch.of(StringVector.of(comments), new IntVector(ColumnType.DATE, dates, ROWS, null));
        }
        if (matches == 0) {
            throw new IllegalStateException("no o_comment of " + BATCHES * ROWS + " matches " + PATTERN);
        }
        like = Expr.like(Expr.col("o_comment"), PATTERN).bind(TYPE);
        cutoff = (int) LocalDate.parse("1995-03-15").toEpochDay();
        dateAfter = Expr.gt(Expr.col("l_shipdate"), Expr.date("1995-03-15")).bind(TYPE);
        final String[] pieces = PATTERN.split("%", -1);
        parts = new byte[pieces.length][];
        for (int i = 0; i < pieces.length; i++) {
            parts[i] = pieces[i].getBytes(StandardCharsets.UTF_8);
        }
        out = new boolean[ROWS];
        for (final Batch batch : batches) {
            final boolean[] want = likeByteByByte(batch);
            final boolean[] got = like.bools(batch);
            for (int i = 0; i < ROWS; i++) {
                if (want[i] != got[i]) {
                    throw new IllegalStateException("LIKE disagrees with the byte-by-byte search at row " + i);
                }
            }
        }
    }

    private Batch nextBatch() {
        final Batch batch = batches[next];
        next = (next + 1) & (BATCHES - 1);
        return batch;
    }

    /** The LIKE evaluator over one batch. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public boolean[] like() {
        return like.bools(nextBatch());
    }

    /** The former LIKE over one batch: each part looked for byte by byte, from every start. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public boolean[] likeByteByByte() {
        return likeByteByByte(nextBatch());
    }

    /** The comparison evaluator over one batch. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public boolean[] dateAfter() {
        return dateAfter.bools(nextBatch());
    }

    /** The former comparison's loop: each int widened to a long and compared with a long constant. */
    @Benchmark
    @OperationsPerInvocation(ROWS)
    public boolean[] dateAfterWidened() {
        final int[] v = ((IntVector) nextBatch().column(1)).values();
        final long k = cutoff;
        for (int i = 0; i < ROWS; i++) {
            out[i] = v[i] > k;
        }
        return out;
    }

    private boolean[] likeByteByByte(final Batch batch) {
        final StringVector v = (StringVector) batch.column(0);
        final byte[] bytes = v.bytes();
        final int[] offsets = v.offsets();
        for (int i = 0; i < ROWS; i++) {
            out[i] = oldTest(parts, bytes, offsets[i], offsets[i + 1] - offsets[i]);
        }
        return out;
    }

    // The former Like's test, kept here as the baseline (its pattern is not anchored at either end).
    private static boolean oldTest(final byte[][] parts, final byte[] bytes, final int offset, final int length) {
        final int end = offset + length;
        int pos = offset;
        for (final byte[] part : parts) {
            final int at = oldIndexOf(bytes, pos, end, part);
            if (at < 0) {
                return false;
            }
            pos = at + part.length;
        }
        return true;
    }

    private static boolean oldStartsWith(final byte[] bytes, final int from, final int end, final byte[] part) {
        if (end - from < part.length) {
            return false;
        }
        for (int i = 0; i < part.length; i++) {
            if (bytes[from + i] != part[i]) {
                return false;
            }
        }
        return true;
    }

    private static int oldIndexOf(final byte[] bytes, final int from, final int end, final byte[] part) {
        final int limit = end - part.length;
        for (int i = from; i <= limit; i++) {
            if (oldStartsWith(bytes, i, end, part)) {
                return i;
            }
        }
        return -1;
    }
}
