package io.sluice.engine.exec;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.dec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Evaluator;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.format.Block;
import io.sluice.format.BlockDecoder;
import io.sluice.format.BlockEncoder;
import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Field;
import io.sluice.format.IndexSort;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.Schema;
import io.sluice.shuffle.operator.Batch;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * SUM beyond 64 bits: values near 10^16 at scale 2 (near 9e18 in units of the scale), positive,
 * negative and mixed so that groups cross zero, with NULLs, summed in one phase and in two phases
 * (the state rows through the block layout that also carries them between CNs), against an exact
 * BigDecimal reference; then the expressions and operators that consume the sums.
 */
class WideSumTest {
    private static final RowType INPUT = new RowType(List.of("g", "v"), List.of(DataType.INT64, DataType.decimal(2)));
    private static final List<Aggregate> AGGREGATES = List.of(
            new Aggregate(AggregateFunction.SUM, col("v"), "s"),
            new Aggregate(AggregateFunction.SUM, col("g"), "sg"),
            new Aggregate(AggregateFunction.AVG, col("v"), "a"),
            new Aggregate(AggregateFunction.COUNT, col("v"), "n"));
    private static final int GROUPS = 5;
    private static final long BIG = 9_000_000_000_000_000_000L;

    /** Rows: group 0 near +9e18, group 1 near -9e18, groups 2 and 3 alternate signs, group 4 only NULLs. */
    private static List<long[]> rows(final int n, final long seed) {
        final Random random = new Random(seed);
        final List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final long g = i % GROUPS;
            final long jitter = random.nextInt(1_000_000_000);
            final long v = switch ((int) g) {
                case 0 -> BIG + jitter;
                case 1 -> -BIG - jitter;
                case 2, 3 -> (i / GROUPS) % 2 == 0 ? BIG - jitter : -BIG + jitter - g;
                default -> 0;
            };
            final boolean isNull = g == 4 || random.nextInt(10) == 0;
            rows.add(new long[] {g, v, isNull ? 1 : 0});
        }
        return rows;
    }

    private static List<Batch> batches(final List<long[]> rows, final int batchRows) {
        final List<Batch> batches = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += batchRows) {
            final int n = Math.min(batchRows, rows.size() - from);
            final long[] g = new long[n];
            final long[] v = new long[n];
            final long[] nulls = new long[NullMask.words(n)];
            for (int i = 0; i < n; i++) {
                final long[] row = rows.get(from + i);
                g[i] = row[0];
                if (row[2] == 1) {
                    NullMask.setNull(nulls, i);
                } else {
                    v[i] = row[1];
                }
            }
            batches.add(Batch.of(new LongVector(ColumnType.INT64, g, n, null),
                    new LongVector(ColumnType.decimal(18, 2), v, n, nulls)));
        }
        return batches;
    }

    /** Group -> exact SUM(v) (null for a group of NULLs) computed with BigDecimal. */
    private static Map<Long, BigDecimal> reference(final List<long[]> rows) {
        final Map<Long, BigDecimal> sums = new HashMap<>();
        for (final long[] row : rows) {
            sums.putIfAbsent(row[0], null);
            if (row[2] == 0) {
                final BigDecimal before = sums.get(row[0]);
                final BigDecimal v = BigDecimal.valueOf(row[1], 2);
                sums.put(row[0], before == null ? v : before.add(v));
            }
        }
        return sums;
    }

    private static QueryResult aggregate(final PipelineExecutor executor, final HashAggregate aggregation,
                                         final RowType rowType, final List<Batch> batches) {
        final Pipeline in = new Pipeline("aggregate", new MaterializedSource(rowType, () -> batches, false),
                List.of(), aggregation, List.of());
        final ResultCollector out = new ResultCollector(aggregation.outputType());
        executor.run(List.of(in, new Pipeline("out", aggregation.output(), List.of(), out, List.of(in))));
        return out.result();
    }

    /** A batch through the block layout, as an exchange between CNs encodes and decodes it. */
    private static Batch throughTheWire(final Batch batch, final RowType type) {
        final List<Field> fields = new ArrayList<>();
        for (int c = 0; c < type.size(); c++) {
            fields.add(new Field("c" + c, type.type(c).storage()));
        }
        final ColumnVector[] columns = new ColumnVector[batch.columnCount()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = batch.column(c);
        }
        final Block block = Block.of(columns);
        final BlockEncoder encoder = new BlockEncoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[encoder.prepare(block)]);
        encoder.writeTo(buffer, 0);
        final Block decoded = new BlockDecoder().wrap(buffer, 0, buffer.capacity(), "wire", 0)
                .decode(new Schema(fields), null);
        return Batch.of(decoded.columns());
    }

    private static void assertSums(final QueryResult result, final Map<Long, BigDecimal> expected,
                                   final Map<Long, BigDecimal> groupSums) {
        assertThat(result.rowCount()).isEqualTo(expected.size());
        for (int r = 0; r < result.rowCount(); r++) {
            final long g = (Long) result.value(r, 0);
            assertThat(result.value(r, 1)).as("SUM(v) of group %d", g).isEqualTo(expected.get(g));
            assertThat(result.value(r, 2)).as("SUM(g) of group %d", g).isEqualTo(groupSums.get(g));
            final BigDecimal sum = expected.get(g);
            if (sum == null) {
                assertThat(result.value(r, 3)).isNull();
            } else {
                final double avg = sum.divide(BigDecimal.valueOf((Long) result.value(r, 4)),
                        java.math.MathContext.DECIMAL128).doubleValue();
                assertThat((Double) result.value(r, 3)).as("AVG(v) of group %d", g).isEqualTo(avg);
            }
        }
    }

    private static Map<Long, BigDecimal> groupSums(final List<long[]> rows) {
        final Map<Long, BigDecimal> sums = new HashMap<>();
        for (final long[] row : rows) {
            sums.merge(row[0], BigDecimal.valueOf(row[0]), BigDecimal::add);
        }
        return sums;
    }

    @Test
    void sumsBeyondSixtyFourBitsAreExactInOnePhaseAndInTwoPhasesOverTheWire() {
        final List<long[]> rows = rows(20_000, 1);
        final Map<Long, BigDecimal> expected = reference(rows);
        assertThat(expected.get(0L).unscaledValue().bitLength()).as("the sums leave the 64-bit range").isGreaterThan(64);
        assertThat(expected.get(1L).signum()).isNegative();
        final List<NamedExpr> keys = List.of(NamedExpr.column("g"));
        try (PipelineExecutor executor = new PipelineExecutor(3)) {
            final QueryResult single = aggregate(executor, new HashAggregate(INPUT, keys, AGGREGATES), INPUT,
                    batches(rows, 1000));
            assertThat(single.rowType().type(1)).isEqualTo(DataType.decimal128(2));
            assertSums(single, expected, groupSums(rows));

            final RowType stateType = HashAggregate.stateType(INPUT, keys, AGGREGATES);
            final List<Batch> states = new ArrayList<>();
            for (int part = 0; part < 3; part++) {
                final List<long[]> partRows = rows.subList(part * rows.size() / 3, (part + 1) * rows.size() / 3);
                final HashAggregate partial = new HashAggregate(INPUT, keys, AGGREGATES, false,
                        AggregationPhase.PARTIAL);
                for (final Batch b : aggregate(executor, partial, INPUT, batches(partRows, 777)).batches()) {
                    states.add(throughTheWire(b, stateType));
                }
            }
            final HashAggregate fin = new HashAggregate(INPUT, keys, AGGREGATES, false, AggregationPhase.FINAL);
            final QueryResult twoPhases = aggregate(executor, fin, stateType, states);
            assertSums(twoPhases, expected, groupSums(rows));

            // The output itself, wide NULL rows included, crosses the wire unchanged.
            final List<Batch> sent = new ArrayList<>();
            for (final Batch b : twoPhases.batches()) {
                sent.add(throughTheWire(b, twoPhases.rowType()));
            }
            final QueryResult received = new QueryResult(twoPhases.rowType(), sent);
            assertThat(received.rows()).isEqualTo(twoPhases.rows());
        }
    }

    @Test
    void anAverageOfASumWithinFiftyThreeBitsIsTheExactQuotientRoundedOnce() {
        final Random random = new Random(3);
        final List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < 30_000; i++) {
            // about 300 rows a group, each up to 10^12 cents of either sign: sums well within 2^53
            final long g = i % 97;
            final long v = (random.nextBoolean() ? 1 : -1) * (long) Math.pow(10, random.nextInt(10)) * random.nextInt(1000);
            rows.add(new long[] {g, v, random.nextInt(20) == 0 ? 1 : 0});
        }
        final Map<Long, BigDecimal> sums = reference(rows);
        final QueryResult result = sums(rows);
        assertThat(result.rowCount()).isEqualTo(97);
        for (int r = 0; r < result.rowCount(); r++) {
            final long g = (Long) result.value(r, 0);
            final BigDecimal sum = sums.get(g);
            assertThat(sum.unscaledValue().abs().bitLength()).as("the sum is exact as a double").isLessThanOrEqualTo(53);
            final double exact = sum.divide(BigDecimal.valueOf((Long) result.value(r, 4)), new MathContext(60))
                    .doubleValue();
            assertThat((Double) result.value(r, 3)).as("AVG(v) of group %d", g).isEqualTo(exact);
        }
    }

    /** The SUM output as one batch: columns g, s (wide), sg (wide), a, n. */
    private static QueryResult sums(final List<long[]> rows) {
        try (PipelineExecutor executor = new PipelineExecutor(2)) {
            return aggregate(executor, new HashAggregate(INPUT, List.of(NamedExpr.column("g")), AGGREGATES), INPUT,
                    batches(rows, 4096));
        }
    }

    private static Batch one(final QueryResult r) {
        assertThat(r.batches()).hasSize(1);
        return r.batches().get(0);
    }

    @Test
    void comparisonsArithmeticDivisionAndCaseTakeAWideSum() {
        final List<long[]> rows = rows(5_000, 2);
        final Map<Long, BigDecimal> expected = reference(rows);
        final QueryResult result = sums(rows);
        final Batch batch = one(result);
        final RowType type = result.rowType();
        final BigDecimal threshold = new BigDecimal("92233720368547758.07");
        final Evaluator having = Expr.gt(col("s"), dec(threshold.toPlainString())).bind(type);
        final Evaluator byInteger = Expr.lt(col("s"), Expr.lit(-BIG)).bind(type);
        final Evaluator sameSums = Expr.eq(col("s"), col("s")).bind(type);
        final Evaluator scaled = Expr.mul(dec("100.00"), col("s")).bind(type);
        final Evaluator ratio = Expr.div(Expr.mul(dec("100.00"), col("s")), col("sg")).bind(type);
        final Evaluator difference = Expr.sub(col("s"), Expr.add(col("s"), dec("0.01"))).bind(type);
        final Evaluator chosen = Expr.caseWhen(Expr.gt(col("s"), Expr.lit(0)), col("s"), col("sg")).bind(type);
        final boolean[] h = having.trues(batch);
        final boolean[] lt = byInteger.trues(batch);
        final boolean[] eq = sameSums.trues(batch);
        final long[] scaledHigh = scaled.highs(batch);
        final long[] scaledLow = scaled.lows(batch);
        final long[] ratioBits = ratio.longs(batch);
        final long[] diffHigh = difference.highs(batch).clone();
        final long[] diffLow = difference.lows(batch).clone();
        final long[] choiceHigh = chosen.highs(batch).clone();
        final long[] choiceLow = chosen.lows(batch).clone();
        assertThat(scaled.type()).isEqualTo(DataType.decimal128(4));
        for (int r = 0; r < result.rowCount(); r++) {
            final long g = (Long) result.value(r, 0);
            final BigDecimal s = expected.get(g);
            final BigDecimal sg = (BigDecimal) result.value(r, 2);
            if (s == null) {
                assertThat(having.nulls(batch)).isNotNull();
                assertThat(h[r]).isFalse();
                continue;
            }
            assertThat(h[r]).as("group %d: %s > %s", g, s, threshold).isEqualTo(s.compareTo(threshold) > 0);
            assertThat(lt[r]).as("group %d: %s < -9e18 (%s)", g, s, result.value(r, 1)).isEqualTo(s.compareTo(BigDecimal.valueOf(-BIG)) < 0);
            assertThat(eq[r]).isTrue();
            assertThat(wide(scaledHigh[r], scaledLow[r], 4)).isEqualTo(s.multiply(new BigDecimal("100.00")));
            assertThat(Double.longBitsToDouble(ratioBits[r])).as("group %d", g)
                    .isCloseTo(s.multiply(BigDecimal.valueOf(100)).doubleValue() / sg.doubleValue(),
                            org.assertj.core.data.Offset.offset(1e-9 * Math.abs(s.doubleValue() * 100 / sg.doubleValue())));
            assertThat(wide(diffHigh[r], diffLow[r], 2)).isEqualTo(new BigDecimal("-0.01"));
            assertThat(wide(choiceHigh[r], choiceLow[r], 2)).isEqualTo(s.signum() > 0 ? s : sg.setScale(2));
        }
    }

    private static BigDecimal wide(final long high, final long low, final int scale) {
        return new BigDecimal(io.sluice.format.Decimal128Vector.toBigInteger(high, low), scale);
    }

    @Test
    void orderByMinAndMaxOfWideSumsFollowTheExactValues() {
        final List<long[]> rows = rows(5_000, 3);
        final Map<Long, BigDecimal> expected = reference(rows);
        final QueryResult result = sums(rows);
        final Batch batch = one(result);
        final ColumnVector[] columns = new ColumnVector[batch.columnCount()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = batch.column(c);
        }
        final int[] order = IndexSort.stableOrder(batch.rowCount(),
                new Sort(result.rowType(), List.of(SortKey.desc("s")), Sort.NO_LIMIT).comparator(columns));
        final List<BigDecimal> sorted = new ArrayList<>();
        for (final int r : order) {
            sorted.add((BigDecimal) result.value(r, 1));
        }
        final List<BigDecimal> present = expected.values().stream().filter(v -> v != null)
                .sorted(java.util.Comparator.reverseOrder()).toList();
        assertThat(sorted.subList(0, present.size())).isEqualTo(present);
        assertThat(sorted.get(sorted.size() - 1)).as("NULL last").isNull();

        try (PipelineExecutor executor = new PipelineExecutor(2)) {
            final HashAggregate extremes = new HashAggregate(result.rowType(), List.of(), List.of(
                    new Aggregate(AggregateFunction.MAX, col("s"), "mx"),
                    new Aggregate(AggregateFunction.MIN, col("s"), "mn")));
            final QueryResult r = aggregate(executor, extremes, result.rowType(), result.batches());
            assertThat(r.rows()).containsExactly(List.of(present.get(0), present.get(present.size() - 1)));
        }
    }

    @Test
    void aSumOfSumsIsExactToo() {
        final List<long[]> rows = rows(5_000, 5);
        final BigDecimal total = reference(rows).values().stream().filter(v -> v != null)
                .reduce(BigDecimal.ZERO, BigDecimal::add);
        final QueryResult result = sums(rows);
        try (PipelineExecutor executor = new PipelineExecutor(2)) {
            final HashAggregate sumOfSums = new HashAggregate(result.rowType(), List.of(), List.of(
                    new Aggregate(AggregateFunction.SUM, col("s"), "total")));
            assertThat(aggregate(executor, sumOfSums, result.rowType(), result.batches()).value(0, 0))
                    .isEqualTo(total);
        }
    }

    @Test
    void whatTakesNoWideValueSaysSoAndOverflowBeyondOneHundredTwentyEightBitsIsAnError() {
        final QueryResult result = sums(rows(1_000, 4));
        final RowType type = result.rowType();
        assertThatThrownBy(() -> new HashAggregate(type, List.of(), List.of(
                new Aggregate(AggregateFunction.COUNT_DISTINCT, col("s"), "ds"))).outputType())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("COUNT_DISTINCT(s)")
                .hasMessageContaining("128-bit decimal");
        assertThatThrownBy(() -> new HashAggregate(type, List.of(NamedExpr.column("s")), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("GROUP BY s");
        assertThatThrownBy(() -> Expr.in(col("s"), Expr.lit(1)).bind(type).bools(one(result)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("s");
        // s^4 of sums near 10^22 needs far more than 128 bits.
        final Evaluator square = Expr.mul(Expr.mul(col("s"), col("s")), Expr.mul(col("s"), col("s"))).bind(type);
        assertThatThrownBy(() -> square.highs(one(result))).isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("128 bits");
    }
}
