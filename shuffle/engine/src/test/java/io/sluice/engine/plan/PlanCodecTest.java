package io.sluice.engine.plan;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.dec;
import static io.sluice.engine.expr.Expr.lit;
import static io.sluice.engine.expr.Expr.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.exec.AggregateFunction;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.Sort;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.exec.FrameBound;
import io.sluice.engine.exec.WindowFrame;
import io.sluice.engine.exec.WindowFunction;
import io.sluice.engine.exec.WindowFunctionType;
import io.sluice.engine.expr.Arithmetic;
import io.sluice.engine.expr.DoubleArithmetic;
import io.sluice.engine.expr.Comparison;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.filter.RuntimeFilterConfig;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.expr.Literal;
import io.sluice.engine.expr.ScalarFunction;
import io.sluice.engine.expr.Logical;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.wire.EnumCodes;
import io.sluice.engine.wire.WireFormatException;
import io.sluice.engine.wire.WireWriter;
import io.sluice.shuffle.operator.ShuffleOptions;
import io.sluice.shuffle.operator.WholeBatchRouting;
import io.sluice.zonemap.CompareOp;
import io.sluice.zonemap.Predicate;
import java.lang.management.ManagementFactory;
import java.lang.reflect.RecordComponent;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A shipped plan decodes to the plan and config that were encoded, for every node, expression,
 * predicate and enum value; anything else (truncated, damaged, hostile or from another version)
 * is a {@link WireFormatException} naming the field.
 */
class PlanCodecTest {
    private static final int FILTER_CONFIG_BYTES = 1 + Long.BYTES + 2 * Integer.BYTES + Long.BYTES + 2 * Integer.BYTES
            + 2 * Long.BYTES;
    /** Magic, version, strategy, thresholds, pool, routing, runtime filters, merge sort, partition reuse, heavy keys, form. */
    private static final int HEADER_BYTES = 4 + 2 + 1 + 4 * Long.BYTES + 1 + FILTER_CONFIG_BYTES + 1 + 1 + 1 + 1;

    /** Plans that together hold every node, expression and predicate type and every enum value. */
    static List<Plan> plans() {
        final Plan lineitem = Plan.scan("lineitem", "l_orderkey", "l_quantity", "l_extendedprice", "l_discount",
                        "l_shipdate", "l_comment", "l_shipmode")
                .prune(Predicate.eq("l_orderkey", 7), Predicate.lt("l_orderkey", 1_000_000),
                        Predicate.le("l_quantity", 50), Predicate.gt("l_quantity", Long.MIN_VALUE),
                        Predicate.ge("l_shipdate", 8766), Predicate.between("l_shipdate", 8766, 9131),
                        Predicate.in("l_shipmode", 3, -1, Long.MAX_VALUE), Predicate.in("l_orderkey"))
                .filter(Expr.and(Expr.ge(col("l_shipdate"), Expr.date("1994-01-01")),
                        Expr.ne(col("l_quantity"), lit(3)),
                        Expr.or(Expr.eq(col("l_shipmode"), str("MAIL")), Expr.lt(col("l_discount"), dec("0.07"))),
                        Expr.gt(col("l_quantity"), lit(-2)), Expr.le(col("l_discount"), dec("0.10")),
                        Expr.not(Expr.like(col("l_comment"), "%special%requests%")),
                        Expr.in(col("l_shipmode"), "MAIL", "SHIP", "naïve 😀 测试", ""),
                        Expr.in(col("l_quantity"), lit(1), dec("2.5"))));
        final Plan topN = lineitem
                .project(NamedExpr.column("l_orderkey"),
                        new NamedExpr("revenue", Expr.mul(col("l_extendedprice"), Expr.sub(lit(1), col("l_discount")))),
                        new NamedExpr("year", Expr.year(col("l_shipdate"))),
                        new NamedExpr("share", Expr.div(col("l_quantity"), new DoubleArithmetic(DoubleArithmetic.Op.ADD,
                                new DoubleArithmetic(DoubleArithmetic.Op.SUB, col("l_tax"), lit(1)),
                                new DoubleArithmetic(DoubleArithmetic.Op.MUL, col("l_tax"), dec("0.5"))))),
                        new NamedExpr("mode", Expr.substring(col("l_shipmode"), 2, 3)),
                        new NamedExpr("bonus", Expr.caseWhen(Expr.gt(col("l_quantity"), lit(10)),
                                Expr.add(col("l_quantity"), dec("0.5")), lit(0))),
                        new NamedExpr("flag", new Literal(DataType.BOOLEAN, 1, null)),
                        new NamedExpr("ratio", new Literal(DataType.DOUBLE, Double.doubleToLongBits(0.25), null)),
                        new NamedExpr("small", new Literal(DataType.INT32, Integer.MIN_VALUE, null)),
                        new NamedExpr("wide", new Literal(DataType.decimal128(2), 0, null, true)),
                        new NamedExpr("high", new Literal(DataType.decimal(18), Long.MAX_VALUE, null)),
                        new NamedExpr("missing", Expr.caseWhen(Expr.isNull(col("l_comment")), Expr.nullOf(DataType.decimal(2)))),
                        new NamedExpr("known", Expr.caseWhen(Expr.isNotNull(col("l_tax")), col("l_tax"),
                                Expr.nullOf(DataType.STRING))),
                        new NamedExpr("upper", Expr.function(ScalarFunction.Function.UPPER, DataType.STRING,
                                col("l_comment"))),
                        new NamedExpr("padded", Expr.function(ScalarFunction.Function.LPAD, DataType.STRING,
                                col("l_shipmode"), lit(12), str("*"))),
                        new NamedExpr("cents", Expr.function(ScalarFunction.Function.CAST, DataType.decimal(1),
                                col("l_tax"))))
                .aggregate(Plan.groupBy("l_orderkey", "year"),
                        Plan.sum(col("revenue"), "sum"), Plan.avg(col("bonus"), "avg"),
                        Plan.min(col("revenue"), "min"), Plan.max(col("l_orderkey"), "max"),
                        Plan.count("count_star"), Plan.count(col("year"), "count"),
                        Plan.countDistinct(col("l_orderkey"), "distinct"), Plan.sum0(col("l_orderkey"), "sum0"),
                        Plan.spread(AggregateFunction.VAR_SAMP, col("revenue"), "var_samp"),
                        Plan.spread(AggregateFunction.VAR_POP, col("revenue"), "var_pop"),
                        Plan.spread(AggregateFunction.STDDEV_SAMP, col("revenue"), "stddev_samp"),
                        Plan.spread(AggregateFunction.STDDEV_POP, col("revenue"), "stddev_pop"))
                .orderBy(SortKey.desc("sum").withNullsFirst(true), SortKey.asc("l_orderkey"))
                .limit(10);
        final Plan orders = Plan.scan("orders", "o_orderkey", "o_custkey", "o_orderdate");
        final Plan joins = orders
                .join(JoinType.INNER, Plan.scan("lineitem", "l_orderkey", "l_shipdate"),
                        List.of("o_orderkey"), List.of("l_orderkey"), Expr.lt(col("o_orderdate"), col("l_shipdate")))
                .join(JoinType.SEMI, Plan.scan("customer", "c_custkey"), List.of("o_custkey"), List.of("c_custkey"))
                .join(JoinType.LEFT, Plan.scan("nation", "n_nationkey", "n_name"), List.of("o_custkey"),
                        List.of("n_nationkey"), Expr.ne(col("n_name"), str("FRANCE")))
                .join(JoinType.ANTI, Plan.scan("region", "r_regionkey"), List.of("o_custkey", "o_orderkey"),
                        List.of("r_regionkey", "r_regionkey"))
                .join(JoinType.NULL_AWARE_ANTI, Plan.scan("supplier", "s_nationkey"), List.of("o_custkey"),
                        List.of("s_nationkey"))
                .filter(Expr.gt(col("o_orderdate"), Expr.date("1995-03-15")))
                .limit(5)
                .orderBy(SortKey.asc("o_orderdate"));
        final PlanNode.Scan bare = new PlanNode.Scan("nation", List.of(), List.of(), null);
        final Plan empties = Plan.of(new PlanNode.OrderBy(new PlanNode.OrderBy(new PlanNode.OrderBy(
                new PlanNode.Join(new PlanNode.Aggregation(new PlanNode.Project(bare, List.of()), List.of(), List.of()),
                        bare, JoinType.INNER, List.of(), List.of(), null),
                List.of(), Sort.NO_LIMIT, SortDistribution.LOCAL_SORT), List.of(), 0, SortDistribution.GATHER_SORT),
                List.of(), 3, SortDistribution.MERGE_SORT));
        final Plan expressionKeys = Plan.of(new PlanNode.Join(orders.node(), bare, JoinType.INNER,
                List.of(Expr.add(col("o_custkey"), lit(1))), List.of(Expr.year(col("n_date"))), null));
        final Plan unions = Plan.scan("orders", "o_orderkey")
                .unionAll(Plan.scan("lineitem", "l_orderkey"), Plan.scan("partsupp", "ps_partkey").limit(2))
                .orderBy(SortKey.asc("o_orderkey"));
        final Plan windows = Plan.scan("orders", "o_orderkey", "o_custkey", "o_totalprice")
                .window(List.of("o_custkey"), List.of(SortKey.desc("o_totalprice").withNullsFirst(true)),
                        WindowFunction.ranking(WindowFunctionType.ROW_NUMBER, "rn"),
                        WindowFunction.ranking(WindowFunctionType.RANK, "r"),
                        WindowFunction.ranking(WindowFunctionType.DENSE_RANK, "dr"),
                        WindowFunction.aggregate(WindowFunctionType.SUM, col("o_totalprice"),
                                WindowFrame.RANGE_TO_CURRENT_ROW, "s"),
                        WindowFunction.aggregate(WindowFunctionType.COUNT, col("o_orderkey"),
                                WindowFrame.ROWS_TO_CURRENT_ROW, "c"),
                        WindowFunction.aggregate(WindowFunctionType.COUNT_STAR, null, WindowFrame.PARTITION, "cs"),
                        WindowFunction.aggregate(WindowFunctionType.AVG, col("o_totalprice"), WindowFrame.PARTITION, "a"),
                        WindowFunction.aggregate(WindowFunctionType.MIN, col("o_totalprice"), WindowFrame.PARTITION,
                                "mn"),
                        WindowFunction.aggregate(WindowFunctionType.MAX, col("o_totalprice"), WindowFrame.PARTITION,
                                "mx"),
                        WindowFunction.aggregate(WindowFunctionType.SUM, col("o_totalprice"),
                                WindowFrame.of(WindowFrame.Unit.ROWS, FrameBound.preceding(2), FrameBound.following(1)),
                                "s21"),
                        WindowFunction.aggregate(WindowFunctionType.MAX, col("o_totalprice"),
                                WindowFrame.of(WindowFrame.Unit.RANGE, FrameBound.CURRENT_ROW,
                                        FrameBound.UNBOUNDED_FOLLOWING), "mxf"),
                        WindowFunction.aggregate(WindowFunctionType.MIN, col("o_totalprice"),
                                WindowFrame.of(WindowFrame.Unit.RANGE, FrameBound.preceding(Long.MAX_VALUE),
                                        FrameBound.following(0)), "mnr"))
                .window(List.of(), List.of(), WindowFunction.ranking(WindowFunctionType.ROW_NUMBER, "n"));
        final Plan nestedLoops = Plan.scan("part", "p_size")
                .nestedLoopJoin(JoinType.INNER, Plan.scan("supplier", "s_lo", "s_hi"),
                        Expr.between(col("p_size"), col("s_lo"), col("s_hi")))
                .nestedLoopJoin(JoinType.LEFT, Plan.scan("nation", "n_nationkey"), null)
                .nestedLoopJoin(JoinType.SEMI, Plan.scan("region", "r_regionkey"), Expr.lt(col("p_size"),
                        col("r_regionkey")))
                .nestedLoopJoin(JoinType.ANTI, Plan.scan("orders", "o_x"), Expr.gt(col("p_size"), col("o_x")));
        final Plan scalars = Plan.scan("nation", "n_name", "n_regionkey").assertOneRow(List.of("n_regionkey"), "per key")
                .assertOneRow(List.of(), "the subquery over nation");
        final Plan rightJoins = Plan.scan("lineitem", "l_orderkey", "l_suppkey")
                .join(JoinType.RIGHT_SEMI, Plan.scan("orders", "o_orderkey", "o_custkey"), List.of("l_orderkey"),
                        List.of("o_orderkey"), Expr.ne(col("l_suppkey"), col("o_custkey")))
                .join(JoinType.RIGHT_ANTI, Plan.scan("customer", "c_custkey"), List.of("o_custkey"), List.of("c_custkey"));
        return List.of(lineitem, topN, joins, empties, expressionKeys, unions, windows, nestedLoops, scalars, rightJoins);
    }

    /** Configs that together hold every strategy and routing, with thresholds at their extremes. */
    static List<StrategyConfig> configs() {
        final List<StrategyConfig> configs = new ArrayList<>();
        final WholeBatchRouting[] routings = WholeBatchRouting.values();
        long n = 0;
        final RuntimeFilterMode[] modes = RuntimeFilterMode.values();
        for (final Strategy s : Strategy.values()) {
            configs.add(new StrategyConfig(s, n, Long.MAX_VALUE - n, 3 * n,
                    new ShuffleOptions(1 + n, routings[(int) (n % routings.length)]),
                    RuntimeFilterConfig.defaults().withMode(modes[(int) (n % modes.length)]).withWaitMillis(n * 7)));
            n++;
        }
        configs.add(StrategyConfig.defaults());
        configs.add(StrategyConfig.defaults().withMergeSort(false));
        configs.add(StrategyConfig.defaults().withPartitionReuse(false));
        return configs;
    }

    private static ShippedPlan roundTrip(final Plan plan, final StrategyConfig config) {
        return PlanCodec.decode(PlanCodec.encode(plan, config));
    }

    @Test
    void everyPlanAndConfigRoundTrips() {
        for (final Plan plan : plans()) {
            for (final StrategyConfig config : configs()) {
                final ShippedPlan shipped = roundTrip(plan, config);
                assertThat(shipped.plan().node()).as("%s under %s", plan, config).isEqualTo(plan.node());
                assertThat(shipped.config()).isEqualTo(config);
            }
        }
    }

    @Property(tries = 500)
    void randomPlansRoundTrip(@ForAll final long seed) {
        final RandomPlans random = new RandomPlans(seed);
        final PlanNode node = random.node(5);
        final StrategyConfig config = random.config();
        final ShippedPlan shipped = roundTrip(Plan.of(node), config);
        assertThat(shipped.plan().node()).isEqualTo(node);
        assertThat(shipped.config()).isEqualTo(config);
    }

    @Test
    void theTestPlansReachEveryTypeAndEnumValue() {
        final Reached reached = new Reached();
        plans().forEach(p -> reached.walk(p.node()));
        configs().forEach(reached::walk);
        assertThat(reached.subtypesOf(PlanNode.class)).isEqualTo(Set.of(PlanNode.class.getPermittedSubclasses()));
        assertThat(reached.subtypesOf(Expr.class)).isEqualTo(Set.of(Expr.class.getPermittedSubclasses()));
        assertThat(reached.subtypesOf(Predicate.class)).isEqualTo(Set.of(Predicate.class.getPermittedSubclasses()));
        for (final Class<? extends Enum<?>> type : List.of(AggregateFunction.class, JoinType.class,
                Comparison.Op.class, Arithmetic.Op.class, DoubleArithmetic.Op.class, Logical.Op.class, CompareOp.class, Strategy.class,
                WholeBatchRouting.class, DataType.Kind.class, SortDistribution.class, WindowFunctionType.class,
                WindowFrame.Unit.class, FrameBound.Kind.class)) {
            assertThat(reached.valuesOf(type)).as(type.getName()).containsExactlyInAnyOrder(type.getEnumConstants());
        }
        final Set<String> optional = Set.of("Scan.filter", "Join.condition", "Aggregate.argument", "Literal.string",
                "OrderBy.distribution", "WindowFunction.argument", "NestedLoopJoin.condition");
        assertThat(reached.nulls).containsAll(optional);
        assertThat(reached.nonNulls).containsAll(optional);
        assertThat(reached.emptyLists).contains("Scan.columns", "Scan.pruning", "Project.items", "Aggregation.keys",
                "Aggregation.aggregates", "Join.probeKeys", "Join.buildKeys", "OrderBy.keys", "In.keys", "Window.partitionBy",
                "Window.orderBy", "AssertOneRow.keys");
        assertThat(reached.limits).as("a top-N and an ORDER BY without limit").contains(Sort.NO_LIMIT, 10L);
    }

    /** The classes, enum values, null and empty fields reached from a value by its record components. */
    private static final class Reached {
        final Set<Class<?>> classes = new HashSet<>();
        final Set<Enum<?>> enums = new HashSet<>();
        final Set<String> nulls = new HashSet<>();
        final Set<String> nonNulls = new HashSet<>();
        final Set<String> emptyLists = new HashSet<>();
        final Set<Long> limits = new HashSet<>();

        void walk(final Object value) {
            if (value == null) {
                return;
            }
            classes.add(value.getClass());
            if (value instanceof Enum<?> e) {
                enums.add(e);
            } else if (value instanceof List<?> list) {
                list.forEach(this::walk);
            } else if (value instanceof Predicate.In in && in.size() == 0) {
                emptyLists.add("In.keys");
            } else if (value instanceof PlanNode.OrderBy o) {
                limits.add(o.limit());
            }
            if (value.getClass().isRecord()) {
                for (final RecordComponent c : value.getClass().getRecordComponents()) {
                    final Object field;
                    try {
                        field = c.getAccessor().invoke(value);
                    } catch (final ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                    final String name = value.getClass().getSimpleName() + "." + c.getName();
                    (field == null ? nulls : nonNulls).add(name);
                    if (field instanceof List<?> l && l.isEmpty()) {
                        emptyLists.add(name);
                    }
                    walk(field);
                }
            }
        }

        Set<Class<?>> subtypesOf(final Class<?> type) {
            final Set<Class<?>> found = new HashSet<>();
            for (final Class<?> c : classes) {
                if (type.isAssignableFrom(c)) {
                    found.add(c);
                }
            }
            return found;
        }

        List<Object> valuesOf(final Class<?> type) {
            final List<Object> found = new ArrayList<>();
            for (final Enum<?> e : enums) {
                if (e.getDeclaringClass() == type) {
                    found.add(e);
                }
            }
            return found;
        }
    }

    @Test
    void everyScalarFunctionRoundTripsWithItsArgumentsAndResultType() {
        for (final ScalarFunction.Function f : ScalarFunction.Function.values()) {
            final Expr[] arguments = new Expr[Math.max(1, f.arity())];
            for (int a = 0; a < arguments.length; a++) {
                arguments[a] = a == 0 ? col("x") : lit(a);
            }
            final DataType type = f == ScalarFunction.Function.SQRT ? DataType.DOUBLE : DataType.decimal(3);
            final Plan plan = Plan.scan("t", "x").project(new NamedExpr("f", Expr.function(f, type, arguments)));
            assertThat(roundTrip(plan, StrategyConfig.defaults()).plan().node()).as(f.name()).isEqualTo(plan.node());
        }
    }

    @Test
    void aPlanDecodesFromItsRangeOfALargerBuffer() {
        final Plan plan = plans().get(2);
        final byte[] bytes = PlanCodec.encode(plan, StrategyConfig.defaults());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[bytes.length + 20]);
        buffer.setMemory(0, buffer.capacity(), (byte) 0x5A);
        buffer.putBytes(13, bytes);
        assertThat(PlanCodec.decode(buffer, 13, bytes.length).plan().node()).isEqualTo(plan.node());
    }

    @Test
    void formatVersionTwelveIsPinned() {
        final StrategyConfig config = new StrategyConfig(Strategy.COLOCATE, 1, 2, 3,
                new ShuffleOptions(4096, WholeBatchRouting.NEVER),
                new RuntimeFilterConfig(RuntimeFilterMode.LOCAL, 5, 6, 7, 0.5, 64, 128, 9, 0.25));
        final byte[] bytes = PlanCodec.encode(Plan.scan("t", "c").filter(Expr.eq(col("c"), lit(5))).limit(3), config);
        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo(
                "534c4350" + "0c00" + "04"
                + "0100000000000000" + "0200000000000000" + "0300000000000000" + "0010000000000000" + "01"
                + "01" + "0500000000000000" + "06000000" + "07000000" + "000000000000e03f" + "40000000" + "80000000"
                + "0900000000000000" + "000000000000d03f" + "01" + "01" + "01" + "00"
                + "07" + "01" + "01000000" + "74" + "01000000" + "01000000" + "63" + "00000000"
                + "01" + "04" + "00" + "01" + "01000000" + "63" + "02" + "00" + "00" + "00" + "0500000000000000" + "00"
                + "0300000000000000");
    }

    @Test
    void aUnionAllIsTagEightWithItsInputCountAndInputs() {
        final byte[] bytes = PlanCodec.encode(Plan.scan("t", "c").unionAll(Plan.scan("u", "c")),
                StrategyConfig.defaults());
        final String scanT = "01" + "01000000" + "74" + "01000000" + "01000000" + "63" + "00000000" + "00";
        final String scanU = "01" + "01000000" + "75" + "01000000" + "01000000" + "63" + "00000000" + "00";
        assertThat(HexFormat.of().formatHex(bytes).substring(2 * HEADER_BYTES))
                .isEqualTo("08" + "02000000" + scanT + scanU);
    }

    @Test
    void aUnionAllOfOneInputIsAWireFormatErrorAtTheNode() {
        final byte[] bytes = PlanCodec.encode(Plan.scan("t", "c").unionAll(Plan.scan("u", "c")),
                StrategyConfig.defaults());
        final byte[] one = Arrays.copyOf(bytes, HEADER_BYTES + 1 + 4 + (bytes.length - HEADER_BYTES - 5) / 2);
        one[HEADER_BYTES + 1] = 1;
        assertThatThrownBy(() -> PlanCodec.decode(one)).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("plan.unionAll").hasMessageContaining("two or more inputs");
    }

    @Test
    void enumCodesArePinned() {
        assertThat(codes(PlanCodec.STRATEGIES, Strategy.class)).isEqualTo(Map.of(Strategy.AUTO, 0,
                Strategy.BROADCAST, 1, Strategy.SHUFFLE_HASH, 2, Strategy.SHUFFLE_RANGE, 3, Strategy.COLOCATE, 4,
                Strategy.HYBRID, 5));
        assertThat(codes(PlanCodec.ROUTINGS, WholeBatchRouting.class)).isEqualTo(Map.of(
                WholeBatchRouting.WHEN_PROVEN, 0, WholeBatchRouting.NEVER, 1, WholeBatchRouting.REQUIRED, 2));
        assertThat(codes(PlanCodec.JOIN_TYPES, JoinType.class)).isEqualTo(Map.of(JoinType.INNER, 0, JoinType.LEFT, 1,
                JoinType.SEMI, 2, JoinType.ANTI, 3, JoinType.NULL_AWARE_ANTI, 4, JoinType.RIGHT_SEMI, 5,
                JoinType.RIGHT_ANTI, 6));
        assertThat(codes(PlanCodec.FUNCTIONS, AggregateFunction.class)).isEqualTo(Map.ofEntries(
                Map.entry(AggregateFunction.SUM, 0), Map.entry(AggregateFunction.COUNT, 1),
                Map.entry(AggregateFunction.COUNT_STAR, 2), Map.entry(AggregateFunction.COUNT_DISTINCT, 3),
                Map.entry(AggregateFunction.AVG, 4), Map.entry(AggregateFunction.MIN, 5),
                Map.entry(AggregateFunction.MAX, 6), Map.entry(AggregateFunction.SUM0, 7),
                Map.entry(AggregateFunction.VAR_SAMP, 8), Map.entry(AggregateFunction.VAR_POP, 9),
                Map.entry(AggregateFunction.STDDEV_SAMP, 10), Map.entry(AggregateFunction.STDDEV_POP, 11)));
        assertThat(codes(PlanCodec.SORT_DISTRIBUTIONS, SortDistribution.class)).isEqualTo(Map.of(
                SortDistribution.LOCAL_SORT, 0, SortDistribution.GATHER_SORT, 1, SortDistribution.MERGE_SORT, 2));
        assertThat(codes(PlanCodec.WINDOW_FUNCTIONS, WindowFunctionType.class)).isEqualTo(Map.of(
                WindowFunctionType.ROW_NUMBER, 0, WindowFunctionType.RANK, 1, WindowFunctionType.DENSE_RANK, 2,
                WindowFunctionType.SUM, 3, WindowFunctionType.COUNT, 4, WindowFunctionType.COUNT_STAR, 5,
                WindowFunctionType.AVG, 6, WindowFunctionType.MIN, 7, WindowFunctionType.MAX, 8));
        assertThat(codes(PlanCodec.FRAME_UNITS, WindowFrame.Unit.class)).isEqualTo(Map.of(
                WindowFrame.Unit.ROWS, 0, WindowFrame.Unit.RANGE, 1));
        assertThat(codes(PlanCodec.FRAME_BOUNDS, FrameBound.Kind.class)).isEqualTo(Map.of(
                FrameBound.Kind.UNBOUNDED_PRECEDING, 0, FrameBound.Kind.PRECEDING, 1, FrameBound.Kind.CURRENT_ROW, 2,
                FrameBound.Kind.FOLLOWING, 3, FrameBound.Kind.UNBOUNDED_FOLLOWING, 4));
        assertThat(codes(PlanCodec.COMPARE_OPS, CompareOp.class)).isEqualTo(Map.of(CompareOp.EQ, 0, CompareOp.LT, 1,
                CompareOp.LE, 2, CompareOp.GT, 3, CompareOp.GE, 4));
        assertThat(codes(ExprCodec.KINDS, DataType.Kind.class)).isEqualTo(Map.of(DataType.Kind.INT64, 0,
                DataType.Kind.INT32, 1, DataType.Kind.DECIMAL, 2, DataType.Kind.DATE, 3, DataType.Kind.STRING, 4,
                DataType.Kind.BOOLEAN, 5, DataType.Kind.DOUBLE, 6, DataType.Kind.DECIMAL128, 7));
        assertThat(codes(ExprCodec.ARITHMETIC_OPS, Arithmetic.Op.class)).isEqualTo(Map.of(Arithmetic.Op.ADD, 0,
                Arithmetic.Op.SUB, 1, Arithmetic.Op.MUL, 2));
        assertThat(codes(ExprCodec.COMPARISON_OPS, Comparison.Op.class)).isEqualTo(Map.of(Comparison.Op.EQ, 0,
                Comparison.Op.NE, 1, Comparison.Op.LT, 2, Comparison.Op.LE, 3, Comparison.Op.GT, 4,
                Comparison.Op.GE, 5));
        assertThat(codes(ExprCodec.LOGICAL_OPS, Logical.Op.class)).isEqualTo(Map.of(Logical.Op.AND, 0,
                Logical.Op.OR, 1));
        final Map<ScalarFunction.Function, Integer> functions = codes(ExprCodec.FUNCTIONS, ScalarFunction.Function.class);
        assertThat(functions).hasSize(25).containsEntry(ScalarFunction.Function.UPPER, 0)
                .containsEntry(ScalarFunction.Function.CONCAT, 5).containsEntry(ScalarFunction.Function.LENGTH, 11)
                .containsEntry(ScalarFunction.Function.ADD_MONTHS, 20).containsEntry(ScalarFunction.Function.CAST, 23)
                .containsEntry(ScalarFunction.Function.ROUND, 24);
    }

    private static <E extends Enum<E>> Map<E, Integer> codes(final EnumCodes<E> codes, final Class<E> type) {
        final Map<E, Integer> map = new LinkedHashMap<>();
        for (final E value : EnumSet.allOf(type)) {
            map.put(value, codes.code(value));
        }
        return map;
    }

    @Test
    void everyTruncationFails() {
        final List<byte[]> encodings = new ArrayList<>();
        for (final Plan plan : plans()) {
            encodings.add(PlanCodec.encode(plan, StrategyConfig.defaults()));
        }
        for (long seed = 0; seed < 20; seed++) {
            final RandomPlans random = new RandomPlans(seed);
            encodings.add(PlanCodec.encode(Plan.of(random.node(4)), random.config()));
        }
        for (final byte[] bytes : encodings) {
            for (int length = 0; length < bytes.length; length++) {
                final int n = length;
                assertThatThrownBy(() -> PlanCodec.decode(new UnsafeBuffer(bytes), 0, n))
                        .as("the first %d of %d bytes", n, bytes.length)
                        .isInstanceOf(WireFormatException.class);
            }
        }
    }

    /**
     * Byte values where decoding changes course: small counts and tags, the last valid codes, a
     * pattern's {@code _} and escape, sign and UTF-8 boundaries.
     */
    private static final byte[] BOUNDARY_BYTES = {0, 1, 2, 3, 6, 7, 10, 11, 18, 19, '_', '\\', 0x7F,
        (byte) 0x80, (byte) 0xC3, (byte) 0xFF};

    /** Thousands of damaged encodings, one per seed; the timeout only catches a decoder that loops forever. */
    @Test
    @Timeout(120)
    void damagedBytesAreRejectedOrDecodeToAPlanThatShipsAgain() {
        for (long seed = 0; seed < 20_000; seed++) {
            damageAndDecode(seed);
        }
    }

    private static void damageAndDecode(final long seed) {
        final Random random = new Random(seed);
        final RandomPlans plans = new RandomPlans(seed);
        final byte[] bytes = random.nextBoolean()
                ? PlanCodec.encode(plans().get(random.nextInt(plans().size())), plans.config())
                : PlanCodec.encode(Plan.of(plans.node(4)), plans.config());
        final int damages = 1 + random.nextInt(4);
        for (int d = 0; d < damages; d++) {
            final int at = random.nextInt(bytes.length);
            switch (random.nextInt(3)) {
                case 0 -> bytes[at] ^= (byte) (1 << random.nextInt(8));
                case 1 -> bytes[at] = (byte) random.nextInt(256);
                default -> bytes[at] = BOUNDARY_BYTES[random.nextInt(BOUNDARY_BYTES.length)];
            }
        }
        final ShippedPlan[] decoded = new ShippedPlan[1];
        final Throwable failure = catchThrowable(() -> decoded[0] = PlanCodec.decode(bytes));
        if (failure != null) {
            assertThat(failure).as("seed %d", seed).isInstanceOf(WireFormatException.class);
            return;
        }
        final ShippedPlan again = roundTrip(decoded[0].plan(), decoded[0].config());
        assertThat(again.plan().node()).as("seed %d", seed).isEqualTo(decoded[0].plan().node());
        assertThat(again.config()).as("seed %d", seed).isEqualTo(decoded[0].config());
    }

    @Test
    void aWrongMagicSaysTheseAreNotPlanBytes() {
        final byte[] bytes = PlanCodec.encode(plans().get(0), StrategyConfig.defaults());
        bytes[0] = 'X';
        assertThatThrownBy(() -> PlanCodec.decode(bytes))
                .isInstanceOf(WireFormatException.class)
                .hasMessageStartingWith("plan.magic at byte 0 of " + bytes.length + ": found 0x50434c58")
                .hasMessageContaining("not an encoded Sluice plan");
    }

    @Test
    void anotherVersionNamesBothVersionsAndTheFix() {
        final byte[] bytes = PlanCodec.encode(plans().get(0), StrategyConfig.defaults());
        // Version 11 plans carry no exchanges, which their CNs paired by the order they compiled them: a CN of this
        // build refuses them rather than look for exchange ids they do not have.
        new UnsafeBuffer(bytes).putShort(4, (short) 11, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> PlanCodec.decode(bytes))
                .isInstanceOf(WireFormatException.class)
                .hasMessage("plan.version at byte 4 of " + bytes.length + ": format version 11, this build reads version 12:"
                        + " run the same Sluice version on the client, the coordinator and every CN");
    }

    @Test
    void trailingBytesAreAnError() {
        final byte[] plan = PlanCodec.encode(plans().get(1), StrategyConfig.defaults());
        final byte[] bytes = Arrays.copyOf(plan, plan.length + 1);
        assertThatThrownBy(() -> PlanCodec.decode(bytes))
                .isInstanceOf(WireFormatException.class)
                .hasMessage("plan at byte " + plan.length + " of " + bytes.length
                        + ": 1 bytes left over after the end of the message");
    }

    @Test
    void anErrorNamesTheFieldByItsPathInThePlan() {
        final Plan plan = Plan.scan("orders", "o_orderkey", "o_custkey", "o_third")
                .join(JoinType.INNER, Plan.scan("customer", "c_custkey"), List.of("o_custkey"), List.of("c_custkey"));
        final byte[] bytes = PlanCodec.encode(plan, StrategyConfig.defaults());
        final int at = indexOf(bytes, "o_third".getBytes(StandardCharsets.UTF_8)) - Integer.BYTES;
        new UnsafeBuffer(bytes).putInt(at, Integer.MAX_VALUE, ByteOrder.LITTLE_ENDIAN);
        final WireFormatException e = (WireFormatException) catchThrowable(() -> PlanCodec.decode(bytes));
        assertThat(e.field()).isEqualTo("plan.join.probe.scan.columns[2]");
        assertThat(e.offset()).isEqualTo(at);
        assertThat(e).hasMessageContaining("length 2147483647 exceeds the");
    }

    private static int indexOf(final byte[] bytes, final byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    /** The bytes up to the root node: magic, a version and a valid config. */
    private static WireWriter header(final short version) {
        return new WireWriter().writeInt(PlanCodec.MAGIC).writeShort(version).writeByte((byte) 0)
                .writeLong(1).writeLong(2).writeLong(3).writeLong(64L << 20).writeByte((byte) 0)
                .writeByte((byte) 2).writeLong(1000).writeInt(1024).writeInt(1 << 18)
                .writeLong(Double.doubleToLongBits(0.01)).writeInt(1024).writeInt(1 << 18).writeLong(16384)
                .writeLong(Double.doubleToLongBits(0.1)).writeBoolean(true).writeBoolean(true).writeBoolean(true).writeByte(PlanCodec.FORM_PLAN);
    }

    /** A scan of column c of table t without pruning, filtered by what {@code filter} writes. */
    private static byte[] scanFilteredBy(final Consumer<WireWriter> filter) {
        final WireWriter w = header(PlanCodec.VERSION).writeByte(PlanCodec.SCAN).writeString("t").writeInt(1)
                .writeString("c").writeInt(0).writeBoolean(true);
        filter.accept(w);
        return w.toByteArray();
    }

    /** Where the filter of {@link #scanFilteredBy} starts. */
    private static final int FILTER_AT = HEADER_BYTES + 1 + 5 + 4 + 5 + 4 + 1;

    private static WireWriter column(final WireWriter w, final String name) {
        return w.writeByte(ExprCodec.COLUMN_REF).writeString(name);
    }

    private static WireWriter literal(final WireWriter w, final int kind, final int scale, final String string) {
        w.writeByte(ExprCodec.LITERAL).writeByte((byte) kind).writeByte((byte) scale).writeBoolean(false).writeLong(5)
                .writeBoolean(string != null);
        return string == null ? w : w.writeString(string);
    }

    /** The bytes of the scan {@link #overScan} writes. */
    private static final int SCAN_BYTES = 1 + 5 + 4 + 5 + 4 + 1;

    /** A node of {@code tag} over the scan of column c of table t, followed by what {@code rest} writes. */
    private static byte[] overScan(final byte tag, final Consumer<WireWriter> rest) {
        final WireWriter w = header(PlanCodec.VERSION).writeByte(tag).writeByte(PlanCodec.SCAN).writeString("t")
                .writeInt(1).writeString("c").writeInt(0).writeBoolean(false);
        rest.accept(w);
        return w.toByteArray();
    }

    static Stream<Arguments> brokenRules() {
        return Stream.of(
                Arguments.of("AND of one term", scanFilteredBy(w -> column(w.writeByte(ExprCodec.LOGICAL)
                        .writeByte((byte) 0).writeInt(1), "c")),
                        "plan.scan.filter.logical", FILTER_AT, "AND needs at least two terms"),
                Arguments.of("IN over a column", scanFilteredBy(w -> column(column(w.writeByte(ExprCodec.IN_LIST), "c")
                        .writeInt(1), "d")), "plan.scan.filter.inList", FILTER_AT, "takes constants"),
                Arguments.of("LIKE with _", scanFilteredBy(w -> column(w.writeByte(ExprCodec.LIKE), "c")
                        .writeString("a_b")), "plan.scan.filter.like", FILTER_AT, "only % wildcards"),
                Arguments.of("an integer with a scale", scanFilteredBy(w -> literal(w, 0, 2, null)),
                        "plan.scan.filter.literal", FILTER_AT, "INT64 takes no scale, got 2"),
                Arguments.of("a decimal scale of 19", scanFilteredBy(w -> literal(w, 2, 19, null)),
                        "plan.scan.filter.literal", FILTER_AT, "decimal scale must be 0..18, got 19"),
                Arguments.of("a negative decimal scale", scanFilteredBy(w -> literal(w, 2, -1, null)),
                        "plan.scan.filter.literal", FILTER_AT, "decimal scale must be 0..18, got -1"),
                Arguments.of("a string literal without its string", scanFilteredBy(w -> literal(w, 4, 0, null)),
                        "plan.scan.filter.literal", FILTER_AT, "a string literal needs its string"),
                Arguments.of("a date literal with a string", scanFilteredBy(w -> literal(w, 3, 0, "x")),
                        "plan.scan.filter.literal", FILTER_AT, "a date literal holds a long, not the string 'x'"),
                Arguments.of("a NULL literal with a value", scanFilteredBy(w -> w.writeByte(ExprCodec.LITERAL)
                        .writeByte((byte) 0).writeByte((byte) 0).writeBoolean(true).writeLong(5).writeBoolean(false)),
                        "plan.scan.filter.literal", FILTER_AT, "the NULL literal of type int64 has no value"),
                Arguments.of("an unknown expression tag", scanFilteredBy(w -> w.writeByte((byte) 15)),
                        "plan.scan.filter", FILTER_AT, "unknown expression tag 15"),
                Arguments.of("an unknown comparison code", scanFilteredBy(w -> w.writeByte(ExprCodec.COMPARISON)
                        .writeByte((byte) 6)), "plan.scan.filter.comparison.op", FILTER_AT + 1,
                        "unknown Op code 6: the codes are 0=EQ, 1=NE, 2=LT, 3=LE, 4=GT, 5=GE"),
                Arguments.of("a presence flag of 2", header(PlanCodec.VERSION).writeByte(PlanCodec.SCAN)
                        .writeString("t").writeInt(0).writeInt(0).writeByte((byte) 2).toByteArray(),
                        "plan.scan.filter.present", HEADER_BYTES + 1 + 5 + 4 + 4, "a boolean must be 0 or 1, found 2"),
                Arguments.of("a blank output name", overScan(PlanCodec.PROJECT, w -> column(w.writeInt(1)
                        .writeString(" "), "c")), "plan.project.items[0]", HEADER_BYTES + 1 + SCAN_BYTES + 4,
                        "an output column needs a name"),
                Arguments.of("COUNT(*) with an argument", overScan(PlanCodec.AGGREGATION, w -> column(w.writeInt(0)
                        .writeInt(1).writeByte((byte) 2).writeBoolean(true), "c").writeString("n")),
                        "plan.aggregation.aggregates[0]", HEADER_BYTES + 1 + SCAN_BYTES + 4 + 4, "takes no argument"),
                Arguments.of("SUM without an argument", overScan(PlanCodec.AGGREGATION, w -> w.writeInt(0).writeInt(1)
                        .writeByte((byte) 0).writeBoolean(false).writeString("n")),
                        "plan.aggregation.aggregates[0]", HEADER_BYTES + 1 + SCAN_BYTES + 4 + 4, "needs an argument"),
                Arguments.of("an unknown aggregate function", overScan(PlanCodec.AGGREGATION, w -> w.writeInt(0)
                        .writeInt(1).writeByte((byte) 12).writeBoolean(false).writeString("n")),
                        "plan.aggregation.aggregates[0].function", HEADER_BYTES + 1 + SCAN_BYTES + 4 + 4,
                        "unknown AggregateFunction code 12"),
                Arguments.of("a window frame from UNBOUNDED FOLLOWING", overScan(PlanCodec.WINDOW, w -> column(
                        w.writeInt(0).writeInt(0).writeInt(1).writeByte((byte) 3).writeBoolean(true), "c")
                        .writeByte((byte) 0).writeByte((byte) 4).writeByte((byte) 2).writeString("s")),
                        "plan.window.functions[0].frame", HEADER_BYTES + 1 + SCAN_BYTES + 4 + 4 + 4 + 8,
                        "a window frame cannot start at UNBOUNDED FOLLOWING"),
                Arguments.of("a negative frame offset", overScan(PlanCodec.WINDOW, w -> column(
                        w.writeInt(0).writeInt(0).writeInt(1).writeByte((byte) 3).writeBoolean(true), "c")
                        .writeByte((byte) 0).writeByte((byte) 1).writeLong(-1).writeByte((byte) 2).writeString("s")),
                        "plan.window.functions[0].frame.start", HEADER_BYTES + 1 + SCAN_BYTES + 4 + 4 + 4 + 8 + 1,
                        "a frame offset must be 0 or more, got -1 PRECEDING"),
                Arguments.of("an unknown join type", overScan(PlanCodec.JOIN, w -> w.writeByte(PlanCodec.SCAN)
                        .writeString("u").writeInt(0).writeInt(0).writeBoolean(false).writeByte((byte) 7)),
                        "plan.join.type", HEADER_BYTES + 1 + SCAN_BYTES + 1 + 5 + 4 + 4 + 1, "unknown JoinType code 7"),
                Arguments.of("a pruning predicate without a column", header(PlanCodec.VERSION)
                        .writeByte(PlanCodec.SCAN).writeString("t").writeInt(0).writeInt(1)
                        .writeByte(PlanCodec.PREDICATE_BETWEEN).writeString("").writeLong(1).writeLong(2)
                        .writeBoolean(false).toByteArray(),
                        "plan.scan.pruning[0].between", HEADER_BYTES + 1 + 5 + 4 + 4, "a predicate needs a column name"),
                Arguments.of("an unknown pruning predicate", header(PlanCodec.VERSION).writeByte(PlanCodec.SCAN)
                        .writeString("t").writeInt(0).writeInt(1).writeByte((byte) 4).writeLong(0).toByteArray(),
                        "plan.scan.pruning[0]", HEADER_BYTES + 1 + 5 + 4 + 4, "unknown pruning predicate tag 4"),
                Arguments.of("an unknown zonemap operator", header(PlanCodec.VERSION).writeByte(PlanCodec.SCAN)
                        .writeString("t").writeInt(0).writeInt(1).writeByte(PlanCodec.PREDICATE_COMPARISON)
                        .writeString("c").writeByte((byte) 5).writeLong(0).toByteArray(),
                        "plan.scan.pruning[0].comparison.op", HEADER_BYTES + 1 + 5 + 4 + 4 + 1 + 5,
                        "unknown CompareOp code 5"),
                Arguments.of("node tag 0", header(PlanCodec.VERSION).writeByte((byte) 0).toByteArray(),
                        "plan", HEADER_BYTES, "unknown node tag 0: expected 1 (scan) to 11 (assert one row)"),
                Arguments.of("node tag 12", header(PlanCodec.VERSION).writeByte((byte) 12).toByteArray(),
                        "plan", HEADER_BYTES, "unknown node tag 12"),
                Arguments.of("an unknown strategy", new WireWriter().writeInt(PlanCodec.MAGIC).writeShort(PlanCodec.VERSION)
                        .writeByte((byte) 6).toByteArray(), "config.strategy", 6, "unknown Strategy code 6"),
                Arguments.of("an unknown routing", new WireWriter().writeInt(PlanCodec.MAGIC).writeShort(PlanCodec.VERSION)
                        .writeByte((byte) 0).writeLong(1).writeLong(2).writeLong(3).writeLong(4).writeByte((byte) 3)
                        .toByteArray(), "config.shuffle.routing", HEADER_BYTES - 5 - FILTER_CONFIG_BYTES, "unknown WholeBatchRouting code 3"),
                Arguments.of("a negative threshold", new WireWriter().writeInt(PlanCodec.MAGIC).writeShort(PlanCodec.VERSION)
                        .writeByte((byte) 0).writeLong(-1).writeLong(2).writeLong(3).writeLong(4).writeByte((byte) 0)
                        .writeByte((byte) 0).writeLong(0).writeInt(0).writeInt(0).writeLong(Double.doubleToLongBits(0.5))
                        .writeInt(64).writeInt(64).writeLong(0).writeLong(0).writeBoolean(true).writeBoolean(true)
                        .writeBoolean(true).toByteArray(),
                        "config", 6,
                        "strategy thresholds must be 0 or more"),
                Arguments.of("a runtime filter rate of 1", new WireWriter().writeInt(PlanCodec.MAGIC)
                        .writeShort(PlanCodec.VERSION).writeByte((byte) 0).writeLong(1).writeLong(2).writeLong(3)
                        .writeLong(4).writeByte((byte) 0).writeByte((byte) 1).writeLong(0).writeInt(0).writeInt(0)
                        .writeLong(Double.doubleToLongBits(1.0)).writeInt(64).writeInt(64).writeLong(0).writeLong(0)
                        .toByteArray(), "config.runtimeFilters", 6 + 1 + 33, "false-positive rate must lie in (0, 1)"),
                Arguments.of("an empty shuffle pool", new WireWriter().writeInt(PlanCodec.MAGIC).writeShort(PlanCodec.VERSION)
                        .writeByte((byte) 0).writeLong(1).writeLong(2).writeLong(3).writeLong(0).writeByte((byte) 0)
                        .toByteArray(), "config.shuffle", 6 + 1 + 24, "shuffle pool budget must be positive"),
                Arguments.of("a table name that is not UTF-8", header(PlanCodec.VERSION).writeByte(PlanCodec.SCAN)
                        .writeBytes(new byte[] {'t', (byte) 0xFF}).toByteArray(),
                        "plan.scan.table", HEADER_BYTES + 1, "not well-formed UTF-8"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenRules")
    void aBrokenRuleIsAWireFormatErrorAtTheRecord(final String what, final byte[] bytes, final String field,
                                                   final int offset, final String message) {
        final Throwable failure = catchThrowable(() -> PlanCodec.decode(bytes));
        assertThat(failure).as(what).isInstanceOf(WireFormatException.class).hasMessageContaining(message);
        final WireFormatException e = (WireFormatException) failure;
        assertThat(e.field()).isEqualTo(field);
        assertThat(e.offset()).isEqualTo(offset);
    }

    @Test
    void aHugeClaimedLengthFailsWithoutAllocatingIt() {
        final byte[] hugeString = header(PlanCodec.VERSION).writeByte(PlanCodec.SCAN).writeInt(Integer.MAX_VALUE)
                .toByteArray();
        final byte[] hugeList = header(PlanCodec.VERSION).writeByte(PlanCodec.SCAN).writeString("t")
                .writeInt(Integer.MAX_VALUE).writeLong(0).toByteArray();
        final byte[] hugeKeys = header(PlanCodec.VERSION).writeByte(PlanCodec.SCAN).writeString("t").writeInt(0)
                .writeInt(1).writeByte(PlanCodec.PREDICATE_IN).writeString("k").writeInt(Integer.MAX_VALUE / 8)
                .writeLong(0).toByteArray();
        final byte[] longButFitting = header(PlanCodec.VERSION).writeByte(PlanCodec.SCAN)
                .writeBytes(new byte[PlanCodec.MAX_LENGTH + 1]).toByteArray();
        final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (final byte[] bytes : List.of(hugeString, hugeList, hugeKeys, hugeString)) {
            final long before = threads.getCurrentThreadAllocatedBytes();
            final Throwable failure = catchThrowable(() -> PlanCodec.decode(bytes));
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertThat(failure).isInstanceOf(WireFormatException.class).hasMessageContaining("bytes left");
            assertThat(allocated).as("bytes allocated while rejecting the claim").isLessThan(1 << 20);
        }
        assertThatThrownBy(() -> PlanCodec.decode(longButFitting))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining("plan.scan.table at byte " + (HEADER_BYTES + 1))
                .hasMessageContaining("exceeds the maximum of " + PlanCodec.MAX_LENGTH + " bytes");
    }

    /** A scan of t.c whose filter is {@code nots} NOTs around the column. */
    private static byte[] nestedNots(final int nots) {
        return scanFilteredBy(w -> {
            for (int i = 0; i < nots; i++) {
                w.writeByte(ExprCodec.NOT);
            }
            column(w, "c");
        });
    }

    /** {@code limits} LIMIT nodes over a scan of t.c. */
    private static byte[] nestedLimits(final int limits) {
        final WireWriter w = header(PlanCodec.VERSION);
        for (int i = 0; i < limits; i++) {
            w.writeByte(PlanCodec.LIMIT);
        }
        w.writeByte(PlanCodec.SCAN).writeString("t").writeInt(1).writeString("c").writeInt(0).writeBoolean(false);
        for (int i = 0; i < limits; i++) {
            w.writeLong(i);
        }
        return w.toByteArray();
    }

    @Test
    void nestingIsLimitedToMaxDepthLevels() {
        // The scan is level 1, its filter level 2: MAX_DEPTH - 2 NOTs around the column fill every level.
        assertThat(PlanCodec.decode(nestedNots(PlanCodec.MAX_DEPTH - 2)).plan().node())
                .isInstanceOf(PlanNode.Scan.class);
        assertThat(PlanCodec.decode(nestedLimits(PlanCodec.MAX_DEPTH - 1)).plan().node())
                .isInstanceOf(PlanNode.Limit.class);
        assertThatThrownBy(() -> PlanCodec.decode(nestedNots(PlanCodec.MAX_DEPTH - 1)))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining("nest deeper than " + PlanCodec.MAX_DEPTH + " levels");
        assertThatThrownBy(() -> PlanCodec.decode(nestedLimits(PlanCodec.MAX_DEPTH)))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining("nest deeper than " + PlanCodec.MAX_DEPTH + " levels");
    }

    @Test
    void aHostileDepthFailsCleanlyInsteadOfOverflowingTheStack() {
        assertThatThrownBy(() -> PlanCodec.decode(nestedNots(1_000_000))).isInstanceOf(WireFormatException.class);
        assertThatThrownBy(() -> PlanCodec.decode(nestedLimits(100_000))).isInstanceOf(WireFormatException.class);
    }

    @Test
    void aPlanTooDeepToDecodeIsRefusedWhenEncoding() {
        Expr e = col("c");
        for (int i = 0; i < PlanCodec.MAX_DEPTH; i++) {
            e = Expr.not(e);
        }
        final Plan plan = Plan.scan("t", "c").filter(e);
        assertThatThrownBy(() -> PlanCodec.encode(plan, StrategyConfig.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("deeper than " + PlanCodec.MAX_DEPTH + " levels");
    }

    @Test
    void aMissingRequiredFieldIsNamedWhenEncoding() {
        final Plan plan = Plan.of(new PlanNode.Filter(Plan.scan("t", "c").node(), null));
        assertThatThrownBy(() -> PlanCodec.encode(plan, StrategyConfig.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot encode plan.filter.predicate: it is null");
        final Plan unnamed = Plan.scan("t", "c").aggregate(Plan.noKeys(), new Aggregate(AggregateFunction.COUNT_STAR,
                null, null));
        assertThatThrownBy(() -> PlanCodec.encode(unnamed, StrategyConfig.defaults()))
                .hasMessageStartingWith("cannot encode plan.aggregation.aggregates[0].name");
        assertThatThrownBy(() -> Plan.of(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sqlTextTravelsWithItsConfigurationAndIsNoPlan() {
        final StrategyConfig config = StrategyConfig.defaults().withStrategy(Strategy.SHUFFLE_HASH);
        final byte[] bytes = PlanCodec.encodeSql("select 1", config);
        assertThat(PlanCodec.sqlOf(bytes)).isEqualTo(new ShippedSql("select 1", config));
        assertThat(PlanCodec.sqlOf(PlanCodec.encode(plans().get(0), config))).isNull();
        assertThatThrownBy(() -> PlanCodec.decode(bytes))
                .isInstanceOf(WireFormatException.class)
                .hasMessageContaining("plan.form")
                .hasMessageContaining("SQL text, not a plan");
    }

    @Test
    void anUnknownFormIsAWireFormatErrorNamingTheForms() {
        final byte[] bytes = PlanCodec.encode(plans().get(0), StrategyConfig.defaults());
        bytes[HEADER_BYTES - 1] = 7;
        assertThatThrownBy(() -> PlanCodec.decode(bytes))
                .isInstanceOf(WireFormatException.class)
                .hasMessageStartingWith("plan.form at byte " + (HEADER_BYTES - 1))
                .hasMessageContaining("unknown form 7");
    }
}
