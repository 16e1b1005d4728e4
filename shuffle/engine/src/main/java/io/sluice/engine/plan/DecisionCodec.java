package io.sluice.engine.plan;

import io.sluice.engine.filter.FilterScope;
import io.sluice.engine.wire.EnumCodes;
import io.sluice.engine.wire.WireReader;
import io.sluice.engine.wire.WireWriter;
import io.sluice.format.TypeKind;
import io.sluice.shuffle.BoundaryMethod;
import io.sluice.shuffle.HashReason;
import io.sluice.shuffle.RangeBoundaries;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.zonemap.HeavyKey;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decisions section of a decided plan in {@link PlanCodec}'s format: the topology, then each decided node's
 * distribution, each runtime filter, each local exchange and each exchange between pipelines, nodes named by
 * their position in
 * {@link PlanWalk#preOrder} of the shipped tree. Decoding checks every position and kind.
 */
final class DecisionCodec {
    static final EnumCodes<Distribution> DISTRIBUTIONS = EnumCodes.of(Distribution.class, Distribution.BROADCAST,
            Distribution.MERGE, Distribution.SHUFFLE_HASH, Distribution.SHUFFLE_RANGE, Distribution.COLOCATE,
            Distribution.HYBRID, Distribution.REUSE_SHUFFLE, Distribution.PKEY, Distribution.GATHER,
            Distribution.ROUND_ROBIN);
    static final EnumCodes<LocalShuffle.Kept> KEPT = EnumCodes.of(LocalShuffle.Kept.class, LocalShuffle.Kept.NONE,
            LocalShuffle.Kept.PROBE, LocalShuffle.Kept.BUILD, LocalShuffle.Kept.BOTH);
    static final EnumCodes<TypeKind> KINDS = EnumCodes.of(TypeKind.class, TypeKind.INT64, TypeKind.INT32,
            TypeKind.DECIMAL, TypeKind.DATE, TypeKind.STRING, TypeKind.DECIMAL128);
    static final EnumCodes<BoundaryMethod> METHODS = EnumCodes.of(BoundaryMethod.class, BoundaryMethod.RANGE_UNIFORM,
            BoundaryMethod.RANGE_QUANTILE, BoundaryMethod.RANGE_GIVEN, BoundaryMethod.HASH);
    // Declaration order: the plan format version pins it.
    static final EnumCodes<DistributionReason> REASONS = EnumCodes.of(DistributionReason.class,
            DistributionReason.values());
    static final EnumCodes<HashReason> HASH_REASONS = EnumCodes.of(HashReason.class, HashReason.values());
    static final EnumCodes<FilterScope> SCOPES = EnumCodes.of(FilterScope.class, FilterScope.LOCAL,
            FilterScope.GLOBAL, FilterScope.PER_BUCKET);
    static final EnumCodes<LocalExchangeType> LOCAL_TYPES = EnumCodes.of(LocalExchangeType.class,
            LocalExchangeType.values());
    static final EnumCodes<LocalExchangeRule> LOCAL_RULES = EnumCodes.of(LocalExchangeRule.class,
            LocalExchangeRule.values());
    static final EnumCodes<LocalExchangeRule.GeneralRule> GENERAL_RULES = EnumCodes.of(
            LocalExchangeRule.GeneralRule.class, LocalExchangeRule.GeneralRule.values());

    static final EnumCodes<DispatchMode> MODES = EnumCodes.of(DispatchMode.class, DispatchMode.TO_OWNER,
            DispatchMode.LOCAL_ONLY, DispatchMode.ALL_CN, DispatchMode.BROADCAST, DispatchMode.ANY, DispatchMode.GATHER);
    static final EnumCodes<FragmentType> FRAGMENTS = EnumCodes.of(FragmentType.class, FragmentType.SOURCE,
            FragmentType.HASH, FragmentType.RANGE, FragmentType.ROUND_ROBIN, FragmentType.BROADCAST,
            FragmentType.SINGLE);

    private DecisionCodec() {
    }

    /** Writes the decisions of a plan whose tree was just written. */
    static void write(final WireWriter out, final DecidedPlan plan) {
        out.writeInt(plan.topology().cnCount());
        out.writeInt(plan.topology().coresPerCn());
        out.writeBoolean(plan.distributed());
        final List<PlanNode> nodes = PlanWalk.preOrder(plan.root());
        final Map<PlanNode, Integer> first = new IdentityHashMap<>();
        int decided = 0;
        for (int i = 0; i < nodes.size(); i++) {
            first.putIfAbsent(nodes.get(i), i);
            decided += plan.decided(nodes.get(i)) ? 1 : 0;
        }
        out.writeInt(decided);
        for (int i = 0; i < nodes.size(); i++) {
            if (plan.decided(nodes.get(i))) {
                out.writeInt(i);
                writeShuffle(out, plan.decisionOf(nodes.get(i)), "decisions[" + i + "]");
            }
        }
        out.writeInt(plan.runtimeFilters().size());
        for (final RuntimeFilterTarget t : plan.runtimeFilters()) {
            out.writeInt(t.id());
            out.writeInt(first.get(t.join()));
            out.writeInt(first.get(t.scan()));
            out.writeInt(t.keys().size());
            for (int k = 0; k < t.keys().size(); k++) {
                out.writeInt(t.keys().get(k));
                PlanCodec.writeString(out, t.probe().get(k), "runtimeFilters[" + t.id() + "].probe");
            }
            SCOPES.write(out, t.scope());
            out.writeBoolean(t.colocated());
            out.writeLong(t.buildRows());
        }
        out.writeInt(plan.localExchanges().size());
        for (final LocalExchange e : plan.localExchanges()) {
            out.writeInt(first.get(e.node()));
            PlanCodec.writeString(out, e.operator(), "localExchanges.operator");
            PlanCodec.writeString(out, e.input(), "localExchanges.input");
            out.writeBoolean(e.rule() != null);
            if (e.rule() != null) {
                LOCAL_RULES.write(out, e.rule());
            }
            LOCAL_TYPES.write(out, e.type());
            out.writeBoolean(e.general() != null);
            if (e.general() != null) {
                GENERAL_RULES.write(out, e.general());
            }
            PlanCodec.writeString(out, e.why(), "localExchanges.why");
        }
        out.writeInt(plan.exchanges().size());
        for (final DecidedExchange e : plan.exchanges()) {
            final String path = "exchanges[" + e.id() + "]";
            out.writeInt(e.position());
            out.writeInt(e.input());
            MODES.write(out, e.mode());
            FRAGMENTS.write(out, e.fragment());
            out.writeInt(e.keys().size());
            for (final String k : e.keys()) {
                PlanCodec.writeString(out, k, path + ".keys");
            }
            writeBoundaries(out, e.boundaries(), path);
        }
    }

    /** Reads the decisions of the tree {@code root} just read. */
    static DecidedPlan read(final WireReader in, final PlanNode root, final StrategyConfig config) {
        final int topologyAt = in.position();
        final int cns = in.readInt("decisions.topology.cnCount");
        final int cores = in.readInt("decisions.topology.coresPerCn");
        final Topology topology = PlanCodec.build(in, "decisions.topology", topologyAt, () -> new Topology(cns, cores));
        final boolean distributed = in.readBoolean("decisions.distributed");
        final List<PlanNode> nodes = PlanWalk.preOrder(root);
        final Map<PlanNode, LocalShuffle> decisions = new IdentityHashMap<>();
        final int decided = in.readCount("decisions", 5);
        for (int d = 0; d < decided; d++) {
            final String path = "decisions[" + d + "]";
            final PlanNode node = node(in, nodes, path + ".node");
            if (!PhysicalPlanner.needsDecision(node)) {
                throw in.error(path + ".node", node.getClass().getSimpleName()
                        + " carries no distribution: only joins, group-bys, windows and assertions do");
            }
            decisions.put(node, readShuffle(in, path));
        }
        for (final PlanNode n : nodes) {
            if (PhysicalPlanner.needsDecision(n) && !decisions.containsKey(n)) {
                throw in.error("decisions", "the " + n.getClass().getSimpleName()
                        + " at position " + nodes.indexOf(n) + " has no decision: the plan was not fully decided");
            }
        }
        final List<RuntimeFilterTarget> filters = new ArrayList<>();
        final int filterCount = in.readCount("runtimeFilters", 4 * 4);
        for (int f = 0; f < filterCount; f++) {
            final String path = "runtimeFilters[" + f + "]";
            final int id = in.readInt(path + ".id");
            final PlanNode join = node(in, nodes, path + ".join");
            final PlanNode scan = node(in, nodes, path + ".scan");
            if (!(join instanceof PlanNode.Join j) || !(scan instanceof PlanNode.Scan s)) {
                throw in.error(path, "a runtime filter names a join and a scan, got " + join.getClass().getSimpleName()
                        + " and " + scan.getClass().getSimpleName());
            }
            final int keyCount = in.readCount(path + ".keys", 4 + 4);
            final List<Integer> keys = new ArrayList<>();
            final List<String> probe = new ArrayList<>();
            for (int k = 0; k < keyCount; k++) {
                final int at = in.position();
                final int key = in.readInt(path + ".keys[" + k + "]");
                if (key < 0 || key >= j.buildKeys().size()) {
                    throw in.error(path + ".keys[" + k + "]", at, "key " + key + " of a join with "
                            + j.buildKeys().size() + " keys");
                }
                keys.add(key);
                probe.add(in.readString(path + ".probe[" + k + "]"));
            }
            final FilterScope scope = SCOPES.read(in, path + ".scope");
            final boolean colocated = in.readBoolean(path + ".colocated");
            final long buildRows = in.readLong(path + ".buildRows");
            filters.add(new RuntimeFilterTarget(id, j, s, keys, probe, scope, colocated, decisions.get(j), buildRows));
        }
        final List<LocalExchange> local = new ArrayList<>();
        final int localCount = in.readCount("localExchanges", 4 + 4 + 4);
        for (int e = 0; e < localCount; e++) {
            final String path = "localExchanges[" + e + "]";
            final PlanNode node = node(in, nodes, path + ".node");
            final String operator = in.readString(path + ".operator");
            final String input = in.readString(path + ".input");
            final LocalExchangeRule rule = in.readBoolean(path + ".hasRule") ? LOCAL_RULES.read(in, path + ".rule")
                    : null;
            final LocalExchangeType type = LOCAL_TYPES.read(in, path + ".type");
            final LocalExchangeRule.GeneralRule general = in.readBoolean(path + ".hasGeneral")
                    ? GENERAL_RULES.read(in, path + ".general") : null;
            final String why = in.readString(path + ".why");
            local.add(new LocalExchange(node, operator, input, rule, type, general, why));
        }
        final List<DecidedExchange> exchanges = new ArrayList<>();
        final int exchangesAt = in.position();
        final int exchangeCount = in.readCount("exchanges", 4 + 4 + 1 + 1 + 4 + 1);
        for (int e = 0; e < exchangeCount; e++) {
            exchanges.add(readExchange(in, nodes, e));
        }
        return PlanCodec.build(in, "exchanges", exchangesAt, () -> new DecidedPlan(root, config, topology, distributed,
                decisions, filters, local, exchanges));
    }

    private static DecidedExchange readExchange(final WireReader in, final List<PlanNode> nodes, final int id) {
        final String path = "exchanges[" + id + "]";
        final int at = in.position();
        final int position = in.readInt(path + ".node");
        if (position < 0 || position >= nodes.size()) {
            throw in.error(path + ".node", at, "node " + position + " of a plan of " + nodes.size() + " nodes");
        }
        final int inputAt = in.position();
        final int input = in.readInt(path + ".input");
        final int inputs = PlanWalk.inputs(nodes.get(position)).size();
        if (input < DecidedExchange.RESULT || input >= inputs || input == DecidedExchange.RESULT && position != 0) {
            throw in.error(path + ".input", inputAt, "input " + input + " of a " + nodes.get(position).getClass()
                    .getSimpleName() + " node with " + inputs + " inputs: an exchange feeds one input of its node, or"
                    + " the result (" + DecidedExchange.RESULT + ") above the root");
        }
        final DispatchMode mode = MODES.read(in, path + ".mode");
        final FragmentType fragment = FRAGMENTS.read(in, path + ".fragment");
        final int keyCount = in.readCount(path + ".keys", 4);
        final List<String> keys = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            keys.add(in.readString(path + ".keys[" + k + "]"));
        }
        final RangeBoundaries boundaries = readBoundaries(in, path);
        return PlanCodec.build(in, path, at, () -> new DecidedExchange(id, position, input, mode, fragment, keys,
                boundaries));
    }

    private static PlanNode node(final WireReader in, final List<PlanNode> nodes, final String field) {
        final int at = in.position();
        final int index = in.readInt(field);
        if (index < 0 || index >= nodes.size()) {
            throw in.error(field, at, "node " + index + " of a plan of " + nodes.size() + " nodes");
        }
        return nodes.get(index);
    }

    private static void writeShuffle(final WireWriter out, final LocalShuffle how, final String path) {
        DISTRIBUTIONS.write(out, how.choice());
        writeBoundaries(out, how.boundaries(), path);
        out.writeBoolean(how.rangeKey() != null);
        if (how.rangeKey() != null) {
            PlanCodec.writeString(out, how.rangeKey(), path + ".rangeKey");
        }
        PlanCodec.writeString(out, how.reason(), path + ".reason");
        KEPT.write(out, how.kept());
        out.writeBoolean(how.colocatedScan());
        REASONS.write(out, how.code());
        out.writeInt(how.numbers().length);
        for (final long n : how.numbers()) {
            out.writeLong(n);
        }
        out.writeInt(how.heavyKeys().size());
        for (final HeavyKey h : how.heavyKeys()) {
            out.writeLong(h.key());
            out.writeLong(h.rows());
            out.writeLong(Double.doubleToLongBits(h.share()));
        }
    }

    private static void writeBoundaries(final WireWriter out, final RangeBoundaries b, final String path) {
        out.writeBoolean(b != null);
        if (b != null) {
            out.writeInt(b.topology().cnCount());
            out.writeInt(b.topology().coresPerCn());
            KINDS.write(out, b.kind());
            METHODS.write(out, b.method());
            HASH_REASONS.write(out, b.hashReason());
            PlanCodec.writeString(out, b.explanation(), path + ".boundaries.explanation");
            final long[] cuts = b.cutPoints();
            out.writeInt(cuts.length);
            for (final long c : cuts) {
                out.writeLong(c);
            }
        }
    }

    private static RangeBoundaries readBoundaries(final WireReader in, final String path) {
        if (!in.readBoolean(path + ".hasBoundaries")) {
            return null;
        }
        final int at = in.position();
        final int cns = in.readInt(path + ".boundaries.cnCount");
        final int cores = in.readInt(path + ".boundaries.coresPerCn");
        final TypeKind kind = KINDS.read(in, path + ".boundaries.kind");
        final BoundaryMethod method = METHODS.read(in, path + ".boundaries.method");
        final HashReason reason = HASH_REASONS.read(in, path + ".boundaries.hashReason");
        final String explanation = in.readString(path + ".boundaries.explanation");
        final int count = in.readCount(path + ".boundaries.cuts", 8);
        final long[] cuts = new long[count];
        for (int i = 0; i < count; i++) {
            cuts[i] = in.readLong(path + ".boundaries.cuts[" + i + "]");
        }
        return PlanCodec.build(in, path + ".boundaries", at, () -> RangeBoundaries.restore(
                new Topology(cns, cores), kind, method, reason, explanation, cuts));
    }

    private static LocalShuffle readShuffle(final WireReader in, final String path) {
        final Distribution choice = DISTRIBUTIONS.read(in, path + ".choice");
        final RangeBoundaries boundaries = readBoundaries(in, path);
        final String rangeKey = in.readBoolean(path + ".hasRangeKey") ? in.readString(path + ".rangeKey") : null;
        final String reason = in.readString(path + ".reason");
        final LocalShuffle.Kept kept = KEPT.read(in, path + ".kept");
        final boolean colocatedScan = in.readBoolean(path + ".colocatedScan");
        final DistributionReason code = REASONS.read(in, path + ".code");
        final long[] numbers = new long[in.readCount(path + ".numbers", 8)];
        for (int i = 0; i < numbers.length; i++) {
            numbers[i] = in.readLong(path + ".numbers[" + i + "]");
        }
        final int heavyCount = in.readCount(path + ".heavyKeys", 3 * 8);
        final List<HeavyKey> heavy = new ArrayList<>();
        for (int i = 0; i < heavyCount; i++) {
            final String field = path + ".heavyKeys[" + i + "]";
            final long key = in.readLong(field + ".key");
            final long rows = in.readLong(field + ".rows");
            final int at = in.position();
            final double share = Double.longBitsToDouble(in.readLong(field + ".share"));
            if (!(share > 0 && share <= 1) || rows < 0) {
                throw in.error(field, at, "a heavy key's share " + share + " of " + rows + " rows: a share is in (0, 1]");
            }
            for (final HeavyKey h : heavy) {
                if (h.key() == key) {
                    throw in.error(field + ".key", "heavy key " + key + " is listed twice");
                }
            }
            heavy.add(new HeavyKey(key, rows, share));
        }
        if (!heavy.isEmpty() && (choice != Distribution.SHUFFLE_RANGE && choice != Distribution.SHUFFLE_HASH
                || kept != LocalShuffle.Kept.NONE)) {
            throw in.error(path + ".heavyKeys", choice + " with heavy keys: only a shuffle of both sides"
                    + " dispatches heavy keys apart");
        }
        return new LocalShuffle(choice, boundaries, rangeKey, reason, kept, colocatedScan, code, numbers, heavy);
    }
}
