package io.sluice.engine.plan;

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
import io.sluice.engine.expr.CaseWhen;
import io.sluice.engine.expr.ColumnRef;
import io.sluice.engine.expr.Comparison;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.DoubleArithmetic;
import io.sluice.engine.expr.ExtractYear;
import io.sluice.engine.expr.InList;
import io.sluice.engine.expr.Like;
import io.sluice.engine.expr.Literal;
import io.sluice.engine.expr.Logical;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.Not;
import io.sluice.engine.expr.Substring;
import io.sluice.shuffle.operator.ShuffleOptions;
import io.sluice.shuffle.operator.WholeBatchRouting;
import io.sluice.zonemap.CompareOp;
import io.sluice.zonemap.Predicate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Random plan trees and strategy configs that every record constructor accepts, from a seed: the
 * shapes no hand-written plan thinks of, for round trips and for damaging their encodings.
 */
final class RandomPlans {
    private static final String[] NAMES = {"l_orderkey", "o_custkey", "x", "naïve", "数", "😀 col", "a b"};
    private static final String[] PATTERNS = {"%", "", "abc", "%special%requests%", "PROMO%", "%é%", "%%"};

    private final Random random;

    RandomPlans(final long seed) {
        this.random = new Random(seed);
    }

    /** A config with any strategy, routing and thresholds. */
    StrategyConfig config() {
        final Strategy[] strategies = Strategy.values();
        final WholeBatchRouting[] routings = WholeBatchRouting.values();
        return new StrategyConfig(strategies[random.nextInt(strategies.length)], count(), count(), count(),
                new ShuffleOptions(1 + (random.nextLong() & (Long.MAX_VALUE - 1)), routings[random.nextInt(routings.length)]));
    }

    /** A plan tree at most {@code depth} nodes deep. */
    PlanNode node(final int depth) {
        final int kind = depth <= 1 ? 0 : random.nextInt(11);
        return switch (kind) {
            case 0 -> new PlanNode.Scan(name(), list(4, this::name), list(3, this::predicate),
                    random.nextBoolean() ? null : expr(3));
            case 1 -> new PlanNode.Filter(node(depth - 1), expr(3));
            case 2 -> new PlanNode.Project(node(depth - 1), list(3, this::named));
            case 3 -> new PlanNode.Aggregation(node(depth - 1), list(3, this::named), list(3, this::aggregate));
            case 4 -> new PlanNode.Join(node(depth - 1), node(depth - 1), pick(JoinType.values()),
                    list(2, () -> expr(1)), list(2, () -> expr(1)), random.nextBoolean() ? null : expr(2));
            case 5 -> new PlanNode.OrderBy(node(depth - 1), list(3, () -> new SortKey(name(), random.nextBoolean())),
                    random.nextBoolean() ? Sort.NO_LIMIT : count(),
                    random.nextBoolean() ? null : pick(SortDistribution.values()));
            case 6 -> new PlanNode.Limit(node(depth - 1), count());
            case 7 -> window(depth);
            case 8 -> new PlanNode.NestedLoopJoin(node(depth - 1), node(depth - 1),
                    pick(new JoinType[] {JoinType.INNER, JoinType.LEFT, JoinType.SEMI, JoinType.ANTI}),
                    random.nextBoolean() ? null : expr(2));
            case 9 -> new PlanNode.AssertOneRow(node(depth - 1), list(2, this::name), name());
            default -> new PlanNode.UnionAll(list(2, () -> node(depth - 1), 2));
        };
    }

    /** An expression at most {@code depth} levels deep. */
    Expr expr(final int depth) {
        final int kind = depth <= 1 ? random.nextInt(2) : random.nextInt(12);
        return switch (kind) {
            case 0 -> new ColumnRef(name());
            case 1 -> literal();
            case 2 -> new Arithmetic(pick(Arithmetic.Op.values()), expr(depth - 1), expr(depth - 1));
            case 3 -> new Comparison(pick(Comparison.Op.values()), expr(depth - 1), expr(depth - 1));
            case 4 -> {
                final List<Expr> terms = list(3, () -> expr(depth - 1));
                terms.add(expr(depth - 1));
                terms.add(expr(depth - 1));
                yield new Logical(pick(Logical.Op.values()), terms);
            }
            case 5 -> new Not(expr(depth - 1));
            case 6 -> {
                final List<Expr> literals = list(3, this::literal);
                literals.add(literal());
                yield new InList(expr(depth - 1), literals);
            }
            case 7 -> new Like(expr(depth - 1), pick(PATTERNS));
            case 8 -> new CaseWhen(expr(depth - 1), expr(depth - 1), expr(depth - 1));
            case 9 -> new ExtractYear(expr(depth - 1));
            case 10 -> new DoubleArithmetic(pick(DoubleArithmetic.Op.values()), expr(depth - 1), expr(depth - 1));
            default -> new Substring(expr(depth - 1), 1 + random.nextInt(10), random.nextInt(10));
        };
    }

    Literal literal() {
        final DataType.Kind kind = pick(DataType.Kind.values());
        final DataType type = kind == DataType.Kind.DECIMAL ? DataType.decimal(random.nextInt(19)) : new DataType(kind, 0);
        if (kind == DataType.Kind.STRING) {
            return new Literal(type, 0, name());
        }
        // A DATE is an epoch day that is a date; the codec refuses the others.
        return new Literal(type, kind == DataType.Kind.DATE ? random.nextInt() : random.nextLong(), null);
    }

    private NamedExpr named() {
        return new NamedExpr(name(), expr(3));
    }

    private Aggregate aggregate() {
        final AggregateFunction f = pick(AggregateFunction.values());
        return new Aggregate(f, f == AggregateFunction.COUNT_STAR ? null : expr(2), name());
    }

    /** A window; one order key when a function's frame has a RANGE offset, which needs exactly one. */
    private PlanNode window(final int depth) {
        final PlanNode input = node(depth - 1);
        final List<String> partitionBy = list(2, this::name);
        final List<WindowFunction> functions = list(3, this::windowFunction, 1);
        final boolean rangeOffset = functions.stream().anyMatch(f -> !f.type().ranking() && f.frame().hasRangeOffset());
        final List<SortKey> orderBy = rangeOffset ? List.of(new SortKey(name(), random.nextBoolean(),
                random.nextBoolean())) : list(2, () -> new SortKey(name(), random.nextBoolean(), random.nextBoolean()));
        return new PlanNode.Window(input, partitionBy, orderBy, functions);
    }

    private WindowFunction windowFunction() {
        final WindowFunctionType t = pick(WindowFunctionType.values());
        final boolean argument = !t.ranking() && t != WindowFunctionType.COUNT_STAR;
        return new WindowFunction(t, argument ? expr(2) : null, frame(), name());
    }

    /** A frame of either unit whose start is not UNBOUNDED FOLLOWING and whose end is not UNBOUNDED PRECEDING. */
    private WindowFrame frame() {
        final FrameBound.Kind[] kinds = FrameBound.Kind.values();
        final FrameBound.Kind start = kinds[random.nextInt(kinds.length - 1)];
        final FrameBound.Kind end = kinds[1 + random.nextInt(kinds.length - 1)];
        return new WindowFrame(pick(WindowFrame.Unit.values()), bound(start), bound(end));
    }

    private FrameBound bound(final FrameBound.Kind kind) {
        return new FrameBound(kind, kind.hasOffset() ? random.nextLong() & Long.MAX_VALUE : 0);
    }

    private Predicate predicate() {
        return switch (random.nextInt(3)) {
            case 0 -> new Predicate.Comparison(name(), pick(CompareOp.values()), random.nextLong());
            case 1 -> new Predicate.Between(name(), random.nextLong(), random.nextLong());
            default -> {
                final long[] keys = new long[random.nextInt(4)];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = random.nextLong();
                }
                yield new Predicate.In(name(), keys);
            }
        };
    }

    private String name() {
        return pick(NAMES);
    }

    private long count() {
        return random.nextInt(4) == 0 ? random.nextLong() & Long.MAX_VALUE : random.nextInt(1000);
    }

    private <T> T pick(final T[] values) {
        return values[random.nextInt(values.length)];
    }

    private <T> List<T> list(final int max, final Supplier<T> item) {
        return list(max, item, 0);
    }

    private <T> List<T> list(final int max, final Supplier<T> item, final int min) {
        final int n = min + random.nextInt(max + 1);
        final List<T> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(item.get());
        }
        return items;
    }
}
