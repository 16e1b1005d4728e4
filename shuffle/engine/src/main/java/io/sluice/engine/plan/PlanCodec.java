package io.sluice.engine.plan;

import io.sluice.engine.exec.Aggregate;
import io.sluice.engine.exec.AggregateFunction;
import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.exec.FrameBound;
import io.sluice.engine.exec.WindowFrame;
import io.sluice.engine.exec.WindowFunction;
import io.sluice.engine.exec.WindowFunctionType;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.expr.NamedExpr;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.filter.RuntimeFilterConfig;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.wire.EnumCodes;
import io.sluice.engine.wire.WireFormatException;
import io.sluice.engine.wire.WireReader;
import io.sluice.engine.wire.WireWriter;
import io.sluice.shuffle.operator.ShuffleOptions;
import io.sluice.shuffle.operator.WholeBatchRouting;
import io.sluice.zonemap.CompareOp;
import io.sluice.zonemap.Predicate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The versioned binary form in which a coordinator ships a {@link Plan} and its
 * {@link StrategyConfig} to the compute nodes, which decode it and compile it themselves: magic
 * "SLCP", {@link #VERSION}, the configuration, then the plan tree with every expression, each enum
 * by an explicit code table. The layout, field by field: {@code shuffle/README.md}.
 *
 * <p>Decoding trusts nothing: every tag, code, count and length is checked before it is used,
 * nesting is limited to {@value #MAX_DEPTH} levels, and any failure is a {@link WireFormatException}
 * naming the field by its path in the plan, e.g. {@code plan.join.probe.scan.columns[2]}.
 */
public final class PlanCodec {
    /**
     * The format version this build writes and reads (6 added the union node and the kind decimal128,
     * 7 the window, nested-loop join and assert-one-row nodes, 8 the partition reuse switch, 9 the decisions
     * section of a plan the coordinator decided: each operator's distribution, runtime filters, local exchanges,
     * 10 the heavy-key switch and each join decision's heavy keys, 11 a window function's frame as a unit and
     * two bounds with their offsets instead of one of three frame codes, 12 the exchanges between pipelines of a
     * decided plan, with their ids).
     */
    public static final short VERSION = 12;
    /** "SLCP" as a little-endian int: the first four bytes of every encoded plan. */
    public static final int MAGIC = 'S' | 'L' << 8 | 'C' << 16 | 'P' << 24;
    /** The deepest nesting of nodes and expressions, together, that encoding and decoding accept. */
    public static final int MAX_DEPTH = 256;
    /** The longest string, and the most items of a list, that decoding accepts. */
    public static final int MAX_LENGTH = 1 << 20;

    static final byte SCAN = 1;
    static final byte FILTER = 2;
    static final byte PROJECT = 3;
    static final byte AGGREGATION = 4;
    static final byte JOIN = 5;
    static final byte ORDER_BY = 6;
    static final byte LIMIT = 7;
    static final byte UNION_ALL = 8;
    static final byte WINDOW = 9;
    static final byte NESTED_LOOP_JOIN = 10;
    static final byte ASSERT_ONE_ROW = 11;

    static final byte PREDICATE_COMPARISON = 1;
    static final byte PREDICATE_BETWEEN = 2;
    static final byte PREDICATE_IN = 3;

    private static final int MIN_STRING_BYTES = 4;
    /** The smallest predicate: an IN, tag, empty column name and no keys. */
    private static final int MIN_PREDICATE_BYTES = 1 + 4 + 4;
    /** The smallest aggregate: function code, absent argument, empty name. */
    private static final int MIN_AGGREGATE_BYTES = 1 + 1 + 4;
    /** The smallest sort key: empty column name, direction. */
    private static final int MIN_SORT_KEY_BYTES = 4 + 1 + 1;
    /** The smallest window function: type code, absent argument, frame unit and two bound kinds, empty name. */
    private static final int MIN_WINDOW_FUNCTION_BYTES = 1 + 1 + 3 + 4;

    static final EnumCodes<Strategy> STRATEGIES = EnumCodes.of(Strategy.class, Strategy.AUTO, Strategy.BROADCAST,
            Strategy.SHUFFLE_HASH, Strategy.SHUFFLE_RANGE, Strategy.COLOCATE, Strategy.HYBRID);
    static final EnumCodes<WholeBatchRouting> ROUTINGS = EnumCodes.of(WholeBatchRouting.class,
            WholeBatchRouting.WHEN_PROVEN, WholeBatchRouting.NEVER, WholeBatchRouting.REQUIRED);
    static final EnumCodes<RuntimeFilterMode> FILTER_MODES = EnumCodes.of(RuntimeFilterMode.class,
            RuntimeFilterMode.OFF, RuntimeFilterMode.LOCAL, RuntimeFilterMode.GLOBAL);
    static final EnumCodes<JoinType> JOIN_TYPES = EnumCodes.of(JoinType.class,
            JoinType.INNER, JoinType.LEFT, JoinType.SEMI, JoinType.ANTI, JoinType.NULL_AWARE_ANTI, JoinType.RIGHT_SEMI,
            JoinType.RIGHT_ANTI);
    static final EnumCodes<AggregateFunction> FUNCTIONS = EnumCodes.of(AggregateFunction.class,
            AggregateFunction.SUM, AggregateFunction.COUNT, AggregateFunction.COUNT_STAR,
            AggregateFunction.COUNT_DISTINCT, AggregateFunction.AVG, AggregateFunction.MIN, AggregateFunction.MAX,
            AggregateFunction.SUM0, AggregateFunction.VAR_SAMP,
            AggregateFunction.VAR_POP, AggregateFunction.STDDEV_SAMP, AggregateFunction.STDDEV_POP);
    static final EnumCodes<SortDistribution> SORT_DISTRIBUTIONS = EnumCodes.of(SortDistribution.class,
            SortDistribution.LOCAL_SORT, SortDistribution.GATHER_SORT, SortDistribution.MERGE_SORT);
    static final EnumCodes<WindowFunctionType> WINDOW_FUNCTIONS = EnumCodes.of(WindowFunctionType.class,
            WindowFunctionType.ROW_NUMBER, WindowFunctionType.RANK, WindowFunctionType.DENSE_RANK,
            WindowFunctionType.SUM, WindowFunctionType.COUNT, WindowFunctionType.COUNT_STAR, WindowFunctionType.AVG,
            WindowFunctionType.MIN, WindowFunctionType.MAX);
    static final EnumCodes<WindowFrame.Unit> FRAME_UNITS = EnumCodes.of(WindowFrame.Unit.class,
            WindowFrame.Unit.ROWS, WindowFrame.Unit.RANGE);
    static final EnumCodes<FrameBound.Kind> FRAME_BOUNDS = EnumCodes.of(FrameBound.Kind.class,
            FrameBound.Kind.UNBOUNDED_PRECEDING, FrameBound.Kind.PRECEDING, FrameBound.Kind.CURRENT_ROW,
            FrameBound.Kind.FOLLOWING, FrameBound.Kind.UNBOUNDED_FOLLOWING);
    static final EnumCodes<CompareOp> COMPARE_OPS = EnumCodes.of(CompareOp.class,
            CompareOp.EQ, CompareOp.LT, CompareOp.LE, CompareOp.GT, CompareOp.GE);

    private PlanCodec() {
    }

    /**
     * The bytes of a plan and its configuration.
     *
     * @throws IllegalArgumentException when the plan cannot be shipped: a field that must be set is
     *                                  null, it nests deeper than {@value #MAX_DEPTH}, or a string
     *                                  has no UTF-8 form; the message names the field
     */
    public static byte[] encode(final Plan plan, final StrategyConfig config) {
        final WireWriter out = new WireWriter();
        encode(plan, config, out);
        return out.toByteArray();
    }

    /** As {@link #encode(Plan, StrategyConfig)}, appending to a writer (reset it first to start a message). */
    public static void encode(final Plan plan, final StrategyConfig config, final WireWriter out) {
        require(plan, "plan");
        writeHeader(config, FORM_PLAN, out);
        writeNode(out, plan.node(), "plan", 0);
    }

    /** The bytes of a decided plan: what the coordinator ships to the CNs ({@link #decodeDecided}). */
    public static byte[] encodeDecided(final DecidedPlan plan) {
        final WireWriter out = new WireWriter();
        writeHeader(plan.config(), FORM_DECIDED, out);
        writeNode(out, plan.root(), "plan", 0);
        DecisionCodec.write(out, plan);
        return out.toByteArray();
    }

    /**
     * The bytes of a SQL statement and the configuration to plan it under: what a client without a store sends
     * the coordinator, which plans it ({@link #sqlOf}).
     */
    public static byte[] encodeSql(final String sql, final StrategyConfig config) {
        final WireWriter out = new WireWriter();
        writeHeader(config, FORM_SQL, out);
        writeString(out, sql, "sql");
        return out.toByteArray();
    }

    private static void writeHeader(final StrategyConfig config, final byte form, final WireWriter out) {
        require(config, "config");
        out.writeInt(MAGIC);
        out.writeShort(VERSION);
        STRATEGIES.write(out, config.strategy());
        out.writeLong(config.joinShuffleMinBuildRows());
        out.writeLong(config.joinMovingShuffleMinBuildRows());
        out.writeLong(config.groupShuffleMinDistinct());
        out.writeLong(config.shuffle().poolBytes());
        ROUTINGS.write(out, config.shuffle().routing());
        final RuntimeFilterConfig filters = config.runtimeFilters();
        FILTER_MODES.write(out, filters.mode());
        out.writeLong(filters.waitMillis());
        out.writeInt(filters.inListMaxKeys());
        out.writeInt(filters.bitmapMaxBytes());
        out.writeLong(Double.doubleToLongBits(filters.bloomFpp()));
        out.writeInt(filters.bloomMinBytes());
        out.writeInt(filters.bloomMaxBytes());
        out.writeLong(filters.sampleRows());
        out.writeLong(Double.doubleToLongBits(filters.minRejection()));
        out.writeBoolean(config.mergeSort());
        out.writeBoolean(config.partitionReuse());
        out.writeBoolean(config.heavyKeys());
        out.writeByte(form);
    }

    /** Decodes a whole byte array as one encoded plan. */
    public static ShippedPlan decode(final byte[] bytes) {
        return decode(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    /**
     * Decodes the plan that occupies exactly {@code [offset, offset + length)} of a buffer (decided or not).
     *
     * @throws WireFormatException      for any bytes that are not a plan this build wrote, naming the field (SQL
     *                                  text included: {@link #sqlOf} reads that)
     * @throws IllegalArgumentException when the range does not lie inside the buffer (a caller's mistake)
     */
    public static ShippedPlan decode(final DirectBuffer buffer, final int offset, final int length) {
        final Decoded d = decodeAny(new UnsafeBuffer(buffer, offset, length));
        if (d.sql != null) {
            throw new WireFormatException("plan.form", HEADER_BYTES - 1, length, "the bytes carry SQL text, not a"
                    + " plan: only a coordinator with a SQL planner plans it");
        }
        return d.decided != null ? new ShippedPlan(d.decided.plan(), d.decided.config()) : d.shipped;
    }

    /**
     * Decodes a plan the coordinator decided ({@link #encodeDecided}).
     *
     * @throws WireFormatException for any bytes that are not a decided plan this build wrote, naming the field
     */
    public static DecidedPlan decodeDecided(final byte[] bytes) {
        final Decoded d = decodeAny(new UnsafeBuffer(bytes));
        if (d.decided == null) {
            throw new WireFormatException("plan.form", HEADER_BYTES - 1, bytes.length, "the plan carries no"
                    + " decisions: a CN runs only plans the coordinator decided (PhysicalPlanner), so send the query"
                    + " through the coordinator");
        }
        return d.decided;
    }

    /** The SQL statement and configuration the bytes carry ({@link #encodeSql}), or null when they carry a plan. */
    public static ShippedSql sqlOf(final byte[] bytes) {
        return decodeAny(new UnsafeBuffer(bytes)).sql;
    }

    /** The bytes before the tree: magic, version, configuration and form. */
    static final int HEADER_BYTES = 4 + 2 + 1 + 8 + 8 + 8 + 8 + 1 + 1 + 8 + 4 + 4 + 8 + 4 + 4 + 8 + 8 + 1 + 1 + 1;
    static final byte FORM_PLAN = 0;
    static final byte FORM_DECIDED = 1;
    static final byte FORM_SQL = 2;

    private record Decoded(ShippedPlan shipped, DecidedPlan decided, ShippedSql sql) {
    }

    private static Decoded decodeAny(final DirectBuffer buffer) {
        final WireReader in = new WireReader(buffer, 0, buffer.capacity(), MAX_LENGTH);
        final int magic = in.readInt("plan.magic");
        if (magic != MAGIC) {
            throw in.error("plan.magic", 0, String.format("found 0x%08x, expected 0x%08x (\"SLCP\"): these bytes"
                    + " are not an encoded Sluice plan", magic, MAGIC));
        }
        final short version = in.readShort("plan.version");
        if (version != VERSION) {
            throw in.error("plan.version", 4, "format version " + version + ", this build reads version " + VERSION
                    + ": run the same Sluice version on the client, the coordinator and every CN");
        }
        final StrategyConfig config = readConfig(in);
        final int formAt = in.position();
        final byte form = in.readByte("plan.form");
        final Decoded d;
        switch (form) {
            case FORM_PLAN -> d = new Decoded(new ShippedPlan(Plan.of(readNode(in, "plan", 0)), config), null, null);
            case FORM_DECIDED -> {
                final PlanNode node = readNode(in, "plan", 0);
                d = new Decoded(null, DecisionCodec.read(in, node, config), null);
            }
            case FORM_SQL -> {
                final String sql = in.readString("sql");
                d = new Decoded(null, null, build(in, "sql", formAt + 1, () -> new ShippedSql(sql, config)));
            }
            default -> throw in.error("plan.form", formAt, "unknown form " + form + ": expected " + FORM_PLAN
                    + " (plan), " + FORM_DECIDED + " (decided plan) or " + FORM_SQL + " (SQL text)");
        }
        in.expectEnd("plan");
        return d;
    }

    /**
     * Writes a row type (names and types) as the plan writes literal types: for messages that carry
     * result rows alongside a plan.
     */
    public static void writeRowType(final WireWriter out, final RowType rowType) {
        out.writeInt(rowType.size());
        for (int c = 0; c < rowType.size(); c++) {
            writeString(out, rowType.name(c), "rowType.names[" + c + "]");
            ExprCodec.KINDS.write(out, rowType.type(c).kind());
            out.writeByte((byte) rowType.type(c).scale());
        }
    }

    /** Reads what {@link #writeRowType} wrote; errors name {@code field}. */
    public static RowType readRowType(final WireReader in, final String field) {
        final int at = in.position();
        final int columns = in.readCount(field + ".columns", MIN_STRING_BYTES + 2);
        final List<String> names = new ArrayList<>(columns);
        final List<DataType> types = new ArrayList<>(columns);
        for (int c = 0; c < columns; c++) {
            names.add(in.readString(field + ".names[" + c + "]"));
            final int typeAt = in.position();
            final DataType.Kind kind = ExprCodec.KINDS.read(in, field + ".types[" + c + "].kind");
            final byte scale = in.readByte(field + ".types[" + c + "].scale");
            types.add(build(in, field + ".types[" + c + "]", typeAt, () -> new DataType(kind, scale)));
        }
        return build(in, field, at, () -> new RowType(names, types));
    }

    private static StrategyConfig readConfig(final WireReader in) {
        final int at = in.position();
        final Strategy strategy = STRATEGIES.read(in, "config.strategy");
        final long joinRows = in.readLong("config.joinShuffleMinBuildRows");
        final long movingRows = in.readLong("config.joinMovingShuffleMinBuildRows");
        final long distinct = in.readLong("config.groupShuffleMinDistinct");
        final int shuffleAt = in.position();
        final long poolBytes = in.readLong("config.shuffle.poolBytes");
        final WholeBatchRouting routing = ROUTINGS.read(in, "config.shuffle.routing");
        final ShuffleOptions shuffle = build(in, "config.shuffle", shuffleAt, () -> new ShuffleOptions(poolBytes, routing));
        final int filtersAt = in.position();
        final RuntimeFilterMode mode = FILTER_MODES.read(in, "config.runtimeFilters.mode");
        final long wait = in.readLong("config.runtimeFilters.waitMillis");
        final int inList = in.readInt("config.runtimeFilters.inListMaxKeys");
        final int bitmap = in.readInt("config.runtimeFilters.bitmapMaxBytes");
        final double fpp = Double.longBitsToDouble(in.readLong("config.runtimeFilters.bloomFpp"));
        final int bloomMin = in.readInt("config.runtimeFilters.bloomMinBytes");
        final int bloomMax = in.readInt("config.runtimeFilters.bloomMaxBytes");
        final long sample = in.readLong("config.runtimeFilters.sampleRows");
        final double rejection = Double.longBitsToDouble(in.readLong("config.runtimeFilters.minRejection"));
        final RuntimeFilterConfig filters = build(in, "config.runtimeFilters", filtersAt, () -> new RuntimeFilterConfig(
                mode, wait, inList, bitmap, fpp, bloomMin, bloomMax, sample, rejection));
        final boolean mergeSort = in.readBoolean("config.mergeSort");
        final boolean partitionReuse = in.readBoolean("config.partitionReuse");
        final boolean heavyKeys = in.readBoolean("config.heavyKeys");
        return build(in, "config", at, () -> new StrategyConfig(strategy, joinRows, movingRows, distinct, shuffle,
                filters, mergeSort, partitionReuse, heavyKeys));
    }

    private static void writeNode(final WireWriter out, final PlanNode node, final String path, final int depth) {
        require(node, path);
        final int d = checkDepth(depth + 1, path);
        if (node instanceof PlanNode.Scan s) {
            final String p = path + ".scan";
            out.writeByte(SCAN);
            writeString(out, s.table(), p + ".table");
            out.writeInt(s.columns().size());
            for (int i = 0; i < s.columns().size(); i++) {
                writeString(out, s.columns().get(i), p + ".columns[" + i + "]");
            }
            out.writeInt(s.pruning().size());
            for (int i = 0; i < s.pruning().size(); i++) {
                writePredicate(out, s.pruning().get(i), p + ".pruning[" + i + "]");
            }
            ExprCodec.writeOptional(out, s.filter(), p + ".filter", d);
        } else if (node instanceof PlanNode.Filter f) {
            out.writeByte(FILTER);
            writeNode(out, f.input(), path + ".filter.input", d);
            ExprCodec.write(out, f.predicate(), path + ".filter.predicate", d);
        } else if (node instanceof PlanNode.Project pr) {
            final String p = path + ".project";
            out.writeByte(PROJECT);
            writeNode(out, pr.input(), p + ".input", d);
            writeNamedList(out, pr.items(), p + ".items", d);
        } else if (node instanceof PlanNode.Aggregation a) {
            final String p = path + ".aggregation";
            out.writeByte(AGGREGATION);
            writeNode(out, a.input(), p + ".input", d);
            writeNamedList(out, a.keys(), p + ".keys", d);
            out.writeInt(a.aggregates().size());
            for (int i = 0; i < a.aggregates().size(); i++) {
                final String ap = p + ".aggregates[" + i + "]";
                final Aggregate agg = require(a.aggregates().get(i), ap);
                FUNCTIONS.write(out, require(agg.function(), ap + ".function"));
                ExprCodec.writeOptional(out, agg.argument(), ap + ".argument", d);
                writeString(out, agg.name(), ap + ".name");
            }
        } else if (node instanceof PlanNode.Join j) {
            final String p = path + ".join";
            out.writeByte(JOIN);
            writeNode(out, j.probe(), p + ".probe", d);
            writeNode(out, j.build(), p + ".build", d);
            JOIN_TYPES.write(out, require(j.type(), p + ".type"));
            ExprCodec.writeList(out, j.probeKeys(), p + ".probeKeys", d);
            ExprCodec.writeList(out, j.buildKeys(), p + ".buildKeys", d);
            ExprCodec.writeOptional(out, j.condition(), p + ".condition", d);
        } else if (node instanceof PlanNode.OrderBy o) {
            final String p = path + ".orderBy";
            out.writeByte(ORDER_BY);
            writeNode(out, o.input(), p + ".input", d);
            writeSortKeys(out, o.keys(), p + ".keys");
            out.writeLong(o.limit());
            out.writeBoolean(o.distribution() != null);
            if (o.distribution() != null) {
                SORT_DISTRIBUTIONS.write(out, o.distribution());
            }
        } else if (node instanceof PlanNode.Window w) {
            final String p = path + ".window";
            out.writeByte(WINDOW);
            writeNode(out, w.input(), p + ".input", d);
            out.writeInt(w.partitionBy().size());
            for (int i = 0; i < w.partitionBy().size(); i++) {
                writeString(out, w.partitionBy().get(i), p + ".partitionBy[" + i + "]");
            }
            writeSortKeys(out, w.orderBy(), p + ".orderBy");
            out.writeInt(w.functions().size());
            for (int i = 0; i < w.functions().size(); i++) {
                final String fp = p + ".functions[" + i + "]";
                final WindowFunction f = require(w.functions().get(i), fp);
                WINDOW_FUNCTIONS.write(out, f.type());
                ExprCodec.writeOptional(out, f.argument(), fp + ".argument", d);
                writeFrame(out, f.frame());
                writeString(out, f.name(), fp + ".name");
            }
        } else if (node instanceof PlanNode.NestedLoopJoin j) {
            final String p = path + ".nestedLoopJoin";
            out.writeByte(NESTED_LOOP_JOIN);
            writeNode(out, j.probe(), p + ".probe", d);
            writeNode(out, j.build(), p + ".build", d);
            JOIN_TYPES.write(out, require(j.type(), p + ".type"));
            ExprCodec.writeOptional(out, j.condition(), p + ".condition", d);
        } else if (node instanceof PlanNode.AssertOneRow a) {
            final String p = path + ".assertOneRow";
            out.writeByte(ASSERT_ONE_ROW);
            writeNode(out, a.input(), p + ".input", d);
            out.writeInt(a.keys().size());
            for (int i = 0; i < a.keys().size(); i++) {
                writeString(out, a.keys().get(i), p + ".keys[" + i + "]");
            }
            writeString(out, a.where(), p + ".where");
        } else if (node instanceof PlanNode.Limit l) {
            out.writeByte(LIMIT);
            writeNode(out, l.input(), path + ".limit.input", d);
            out.writeLong(l.limit());
        } else if (node instanceof PlanNode.UnionAll u) {
            out.writeByte(UNION_ALL);
            out.writeInt(u.inputs().size());
            for (int i = 0; i < u.inputs().size(); i++) {
                writeNode(out, u.inputs().get(i), path + ".unionAll.inputs[" + i + "]", d);
            }
        } else {
            throw new IllegalStateException(path + ": " + node.getClass().getName() + " is a PlanNode the plan codec"
                    + " does not know: give it a tag in PlanCodec");
        }
    }

    private static PlanNode readNode(final WireReader in, final String path, final int depth) {
        final int at = in.position();
        final int d = checkDepth(in, depth + 1, path);
        final int tag = in.readUnsignedByte(path);
        return switch (tag) {
            case SCAN -> {
                final String p = path + ".scan";
                final String table = in.readString(p + ".table");
                final int columnCount = in.readCount(p + ".columns", MIN_STRING_BYTES);
                final List<String> columns = new ArrayList<>(columnCount);
                for (int i = 0; i < columnCount; i++) {
                    columns.add(in.readString(p + ".columns[" + i + "]"));
                }
                final int pruningCount = in.readCount(p + ".pruning", MIN_PREDICATE_BYTES);
                final List<Predicate> pruning = new ArrayList<>(pruningCount);
                for (int i = 0; i < pruningCount; i++) {
                    pruning.add(readPredicate(in, p + ".pruning[" + i + "]"));
                }
                final Expr filter = ExprCodec.readOptional(in, p + ".filter", d);
                yield new PlanNode.Scan(table, columns, pruning, filter);
            }
            case FILTER -> {
                final PlanNode input = readNode(in, path + ".filter.input", d);
                final Expr predicate = ExprCodec.read(in, path + ".filter.predicate", d);
                yield new PlanNode.Filter(input, predicate);
            }
            case PROJECT -> {
                final String p = path + ".project";
                final PlanNode input = readNode(in, p + ".input", d);
                yield new PlanNode.Project(input, readNamedList(in, p + ".items", d));
            }
            case AGGREGATION -> {
                final String p = path + ".aggregation";
                final PlanNode input = readNode(in, p + ".input", d);
                final List<NamedExpr> keys = readNamedList(in, p + ".keys", d);
                final int n = in.readCount(p + ".aggregates", MIN_AGGREGATE_BYTES);
                final List<Aggregate> aggregates = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    final String ap = p + ".aggregates[" + i + "]";
                    final int aggAt = in.position();
                    final AggregateFunction function = FUNCTIONS.read(in, ap + ".function");
                    final Expr argument = ExprCodec.readOptional(in, ap + ".argument", d);
                    final String name = in.readString(ap + ".name");
                    aggregates.add(build(in, ap, aggAt, () -> new Aggregate(function, argument, name)));
                }
                yield new PlanNode.Aggregation(input, keys, aggregates);
            }
            case JOIN -> {
                final String p = path + ".join";
                final PlanNode probe = readNode(in, p + ".probe", d);
                final PlanNode build = readNode(in, p + ".build", d);
                final JoinType type = JOIN_TYPES.read(in, p + ".type");
                final List<Expr> probeKeys = ExprCodec.readList(in, p + ".probeKeys", d);
                final List<Expr> buildKeys = ExprCodec.readList(in, p + ".buildKeys", d);
                final Expr condition = ExprCodec.readOptional(in, p + ".condition", d);
                yield new PlanNode.Join(probe, build, type, probeKeys, buildKeys, condition);
            }
            case ORDER_BY -> {
                final String p = path + ".orderBy";
                final PlanNode input = readNode(in, p + ".input", d);
                final List<SortKey> keys = readSortKeys(in, p + ".keys");
                final long limit = in.readLong(p + ".limit");
                final SortDistribution distribution = in.readBoolean(p + ".distribution.present")
                        ? SORT_DISTRIBUTIONS.read(in, p + ".distribution") : null;
                yield new PlanNode.OrderBy(input, keys, limit, distribution);
            }
            case LIMIT -> {
                final PlanNode input = readNode(in, path + ".limit.input", d);
                yield new PlanNode.Limit(input, in.readLong(path + ".limit.limit"));
            }
            case UNION_ALL -> {
                final String p = path + ".unionAll";
                final int n = in.readCount(p + ".inputs", 1);
                final List<PlanNode> inputs = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    inputs.add(readNode(in, p + ".inputs[" + i + "]", d));
                }
                yield build(in, p, at, () -> new PlanNode.UnionAll(inputs));
            }
            case WINDOW -> {
                final String p = path + ".window";
                final PlanNode input = readNode(in, p + ".input", d);
                final int partitions = in.readCount(p + ".partitionBy", MIN_STRING_BYTES);
                final List<String> partitionBy = new ArrayList<>(partitions);
                for (int i = 0; i < partitions; i++) {
                    partitionBy.add(in.readString(p + ".partitionBy[" + i + "]"));
                }
                final List<SortKey> orderBy = readSortKeys(in, p + ".orderBy");
                final int n = in.readCount(p + ".functions", MIN_WINDOW_FUNCTION_BYTES);
                final List<WindowFunction> functions = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    final String fp = p + ".functions[" + i + "]";
                    final int fAt = in.position();
                    final WindowFunctionType type = WINDOW_FUNCTIONS.read(in, fp + ".type");
                    final Expr argument = ExprCodec.readOptional(in, fp + ".argument", d);
                    final WindowFrame frame = readFrame(in, fp + ".frame");
                    final String name = in.readString(fp + ".name");
                    functions.add(build(in, fp, fAt, () -> new WindowFunction(type, argument, frame, name)));
                }
                yield build(in, p, at, () -> new PlanNode.Window(input, partitionBy, orderBy, functions));
            }
            case NESTED_LOOP_JOIN -> {
                final String p = path + ".nestedLoopJoin";
                final PlanNode probe = readNode(in, p + ".probe", d);
                final PlanNode build = readNode(in, p + ".build", d);
                final JoinType type = JOIN_TYPES.read(in, p + ".type");
                final Expr condition = ExprCodec.readOptional(in, p + ".condition", d);
                yield build(in, p, at, () -> new PlanNode.NestedLoopJoin(probe, build, type, condition));
            }
            case ASSERT_ONE_ROW -> {
                final String p = path + ".assertOneRow";
                final PlanNode input = readNode(in, p + ".input", d);
                final int n = in.readCount(p + ".keys", MIN_STRING_BYTES);
                final List<String> keys = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    keys.add(in.readString(p + ".keys[" + i + "]"));
                }
                yield new PlanNode.AssertOneRow(input, keys, in.readString(p + ".where"));
            }
            default -> throw in.error(path, at, "unknown node tag " + tag + ": expected " + SCAN + " (scan) to "
                    + ASSERT_ONE_ROW + " (assert one row)");
        };
    }

    private static void writeSortKeys(final WireWriter out, final List<SortKey> keys, final String path) {
        out.writeInt(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            final SortKey k = require(keys.get(i), path + "[" + i + "]");
            writeString(out, k.column(), path + "[" + i + "].column");
            out.writeBoolean(k.descending());
            out.writeBoolean(k.nullsFirst());
        }
    }

    /** A frame: its unit, then each bound's kind followed, for PRECEDING and FOLLOWING, by its offset. */
    private static void writeFrame(final WireWriter out, final WindowFrame frame) {
        FRAME_UNITS.write(out, frame.unit());
        for (final FrameBound b : List.of(frame.start(), frame.end())) {
            FRAME_BOUNDS.write(out, b.kind());
            if (b.kind().hasOffset()) {
                out.writeLong(b.offset());
            }
        }
    }

    private static WindowFrame readFrame(final WireReader in, final String path) {
        final int at = in.position();
        final WindowFrame.Unit unit = FRAME_UNITS.read(in, path + ".unit");
        final FrameBound start = readBound(in, path + ".start");
        final FrameBound end = readBound(in, path + ".end");
        return build(in, path, at, () -> new WindowFrame(unit, start, end));
    }

    private static FrameBound readBound(final WireReader in, final String path) {
        final int at = in.position();
        final FrameBound.Kind kind = FRAME_BOUNDS.read(in, path + ".kind");
        final long offset = kind.hasOffset() ? in.readLong(path + ".offset") : 0;
        return build(in, path, at, () -> new FrameBound(kind, offset));
    }

    private static List<SortKey> readSortKeys(final WireReader in, final String path) {
        final int n = in.readCount(path, MIN_SORT_KEY_BYTES);
        final List<SortKey> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            final String column = in.readString(path + "[" + i + "].column");
            final boolean descending = in.readBoolean(path + "[" + i + "].descending");
            keys.add(new SortKey(column, descending, in.readBoolean(path + "[" + i + "].nullsFirst")));
        }
        return keys;
    }

    private static void writeNamedList(final WireWriter out, final List<NamedExpr> items, final String path,
                                       final int depth) {
        out.writeInt(items.size());
        for (int i = 0; i < items.size(); i++) {
            ExprCodec.writeNamed(out, items.get(i), path + "[" + i + "]", depth);
        }
    }

    private static List<NamedExpr> readNamedList(final WireReader in, final String path, final int depth) {
        final int n = in.readCount(path, ExprCodec.MIN_NAMED_EXPR_BYTES);
        final List<NamedExpr> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            items.add(ExprCodec.readNamed(in, path + "[" + i + "]", depth));
        }
        return items;
    }

    private static void writePredicate(final WireWriter out, final Predicate predicate, final String path) {
        require(predicate, path);
        if (predicate instanceof Predicate.Comparison c) {
            out.writeByte(PREDICATE_COMPARISON);
            writeString(out, c.column(), path + ".comparison.column");
            COMPARE_OPS.write(out, c.op());
            out.writeLong(c.key());
        } else if (predicate instanceof Predicate.Between b) {
            out.writeByte(PREDICATE_BETWEEN);
            writeString(out, b.column(), path + ".between.column");
            out.writeLong(b.lo());
            out.writeLong(b.hi());
        } else if (predicate instanceof Predicate.In in) {
            out.writeByte(PREDICATE_IN);
            writeString(out, in.column(), path + ".in.column");
            out.writeInt(in.size());
            for (int i = 0; i < in.size(); i++) {
                out.writeLong(in.key(i));
            }
        } else {
            throw new IllegalStateException(path + ": " + predicate.getClass().getName() + " is a Predicate the plan"
                    + " codec does not know: give it a tag in PlanCodec");
        }
    }

    private static Predicate readPredicate(final WireReader in, final String path) {
        final int at = in.position();
        final int tag = in.readUnsignedByte(path);
        return switch (tag) {
            case PREDICATE_COMPARISON -> {
                final String p = path + ".comparison";
                final String column = in.readString(p + ".column");
                final CompareOp op = COMPARE_OPS.read(in, p + ".op");
                final long key = in.readLong(p + ".key");
                yield build(in, p, at, () -> new Predicate.Comparison(column, op, key));
            }
            case PREDICATE_BETWEEN -> {
                final String p = path + ".between";
                final String column = in.readString(p + ".column");
                final long lo = in.readLong(p + ".lo");
                final long hi = in.readLong(p + ".hi");
                yield build(in, p, at, () -> new Predicate.Between(column, lo, hi));
            }
            case PREDICATE_IN -> {
                final String p = path + ".in";
                final String column = in.readString(p + ".column");
                final long[] keys = new long[in.readCount(p + ".keys", Long.BYTES)];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = in.readLong(p + ".keys[" + i + "]");
                }
                yield build(in, p, at, () -> new Predicate.In(column, keys));
            }
            default -> throw in.error(path, at, "unknown pruning predicate tag " + tag + ": expected "
                    + PREDICATE_COMPARISON + " (comparison) to " + PREDICATE_IN + " (in)");
        };
    }

    /** Writes a string that must be set. */
    static void writeString(final WireWriter out, final String value, final String path) {
        require(value, path);
        try {
            out.writeString(value);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot encode " + path + ": " + e.getMessage(), e);
        }
    }

    /** A value that must be set, or an error naming the field. */
    static <T> T require(final T value, final String path) {
        if (value == null) {
            throw new IllegalArgumentException("cannot encode " + path + ": it is null, and only a scan's filter, a"
                    + " join's condition, COUNT(*)'s argument and a number literal's string may be");
        }
        return value;
    }

    /** The nesting level when writing, or an error when a plan nests too deep to ship. */
    static int checkDepth(final int depth, final String path) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("cannot encode " + path + ": the plan nests nodes and expressions"
                    + " deeper than " + MAX_DEPTH + " levels, more than a compute node decodes");
        }
        return depth;
    }

    /** The nesting level when reading, or an error when the input nests too deep. */
    static int checkDepth(final WireReader in, final int depth, final String path) {
        if (depth > MAX_DEPTH) {
            throw in.error(path, "nodes and expressions nest deeper than " + MAX_DEPTH
                    + " levels, deeper than any plan this build writes");
        }
        return depth;
    }

    /** Runs a record constructor on decoded fields; a rule it enforces becomes an error at the record's offset. */
    static <T> T build(final WireReader in, final String path, final int at, final Supplier<T> constructor) {
        try {
            return constructor.get();
        } catch (final IllegalArgumentException e) {
            throw in.error(path, at, e.getMessage(), e);
        }
    }
}
