package io.sluice.perf.bench;

import io.sluice.dispatch.cluster.Session;
import io.sluice.engine.filter.RuntimeFilterConfig;
import io.sluice.engine.filter.RuntimeFilterMode;
import io.sluice.engine.plan.Strategy;
import io.sluice.perf.tpch.Queries;
import io.sluice.perf.tpch.Query;
import io.sluice.perf.tpch.TpchSql;
import io.sluice.shuffle.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What one {@code sluice bench} run measures: the scale factor, the queries, the cluster shapes
 * and strategies crossed with them, the timed and warm-up runs per cell, and whether DuckDB runs
 * the same queries beside Sluice. Built from command-line text by the static parsers, which
 * reject anything unknown before any work starts.
 *
 * @param scaleFactor TPC-H scale factor of the data
 * @param queries     queries, in the order given, without duplicates
 * @param topologies  cluster shapes (CNs x cores), in the order given
 * @param strategies  join and group-by strategies, in the order given
 * @param runs        timed runs per cell, 1 or more
 * @param warmup      untimed runs per cell before the timed ones, 0 or more
 * @param vsDuckDb    whether DuckDB runs each query on each topology's total cores, timed the same way
 * @param network     how embedded CNs reach each other: one media driver and aeron:ipc, or a driver per CN and aeron:udp
 * @param clusters    where the CNs run: in this JVM, as processes, or both side by side in one run
 * @param runtimeFilterModes runtime filter modes each (query, topology, strategy) runs under, one after the other,
 *                    in the order given; the per-strategy tables and charts show the first, a comparison table all
 */
public record BenchSpec(double scaleFactor, List<Query> queries, List<Topology> topologies,
                        List<Strategy> strategies, int runs, int warmup, boolean vsDuckDb, Session.Network network,
                        List<ClusterKind> clusters, List<RuntimeFilterMode> runtimeFilterModes) {
    /** The queries of a default run: the 22 TPC-H queries from their text, then every workload. */
    public static final String DEFAULT_QUERIES = "all";
    /** The cluster shapes of a default run. */
    public static final String DEFAULT_TOPOLOGIES = "1x2,3x2";
    /** The strategies of a default run: all of them. */
    public static final String DEFAULT_STRATEGIES = "all";

    public BenchSpec {
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be 1 or more, got " + runs);
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("--warmup must be 0 or more, got " + warmup);
        }
        if (queries.isEmpty() || topologies.isEmpty() || strategies.isEmpty() || clusters.isEmpty()
                || runtimeFilterModes.isEmpty()) {
            throw new IllegalArgumentException("a benchmark needs at least one query, topology, strategy, cluster and"
                    + " runtime filter mode");
        }
        queries = List.copyOf(queries);
        topologies = List.copyOf(topologies);
        strategies = List.copyOf(strategies);
        clusters = List.copyOf(new LinkedHashSet<>(clusters));
        runtimeFilterModes = List.copyOf(new LinkedHashSet<>(runtimeFilterModes));
    }

    /** A spec of CNs in this JVM only. */
    public BenchSpec(final double scaleFactor, final List<Query> queries, final List<Topology> topologies,
                     final List<Strategy> strategies, final int runs, final int warmup, final boolean vsDuckDb,
                     final Session.Network network) {
        this(scaleFactor, queries, topologies, strategies, runs, warmup, vsDuckDb, network,
                List.of(ClusterKind.EMBEDDED), List.of(RuntimeFilterConfig.defaults().mode()));
    }

    /** Number of (query, cluster, topology, strategy, runtime filter mode) cells. */
    public int cellCount() {
        return queries.size() * clusters.size() * topologies.size() * strategies.size() * runtimeFilterModes.size();
    }

    /** Whether cells run under several runtime filter modes (their labels and reports then name the mode). */
    public boolean comparesRuntimeFilters() {
        return runtimeFilterModes.size() > 1;
    }

    /** Parses {@code embedded}, {@code processes} or both ({@code embedded,processes}). */
    public static List<ClusterKind> clusters(final List<String> names) {
        final Set<ClusterKind> chosen = new LinkedHashSet<>();
        for (final String name : names) {
            chosen.add(ClusterKind.parse(name));
        }
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("--cluster names no cluster: write embedded, processes or both");
        }
        return new ArrayList<>(chosen);
    }

    /** The tables the queries read, each once. */
    public List<String> tables() {
        final Set<String> tables = new LinkedHashSet<>();
        for (final Query q : queries) {
            tables.addAll(q.tables());
        }
        return new ArrayList<>(tables);
    }

    /**
     * Every query a bench knows, by name: q1..q22, each from its SQL text ({@link TpchTextQuery}; the
     * hand-written Java plans are not timed), then the workloads (join_lo, join_lp, grp_orderkey, ...).
     */
    public static Map<String, Query> known() {
        final Map<String, Query> known = new LinkedHashMap<>();
        for (int n = 1; n <= TpchSql.COUNT; n++) {
            final Query q = new TpchTextQuery(n);
            known.put(q.name(), q);
        }
        for (final Query q : Queries.all()) {
            if (!q.name().matches("q\\d+")) {
                known.put(q.name(), q);
            }
        }
        return known;
    }

    /** Parses query names ({@code all} for every one); the error lists the known names. */
    public static List<Query> queries(final List<String> names) {
        final Map<String, Query> known = known();
        if (isAll(names)) {
            return new ArrayList<>(known.values());
        }
        final Map<String, Query> chosen = new LinkedHashMap<>();
        final List<String> unknown = new ArrayList<>();
        for (final String name : names) {
            final String key = name.trim().toLowerCase(Locale.ROOT);
            final Query q = known.get(key);
            if (q == null) {
                unknown.add("'" + name + "'");
            } else {
                chosen.put(key, q);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown quer" + (unknown.size() > 1 ? "ies " : "y ")
                    + String.join(", ", unknown) + " in --queries: use all or some of "
                    + String.join(",", known.keySet()));
        }
        return new ArrayList<>(chosen.values());
    }

    /** Parses topologies such as {@code 1x2,3x2}; the error shows the expected form. */
    public static List<Topology> topologies(final List<String> texts) {
        final Set<Topology> chosen = new LinkedHashSet<>();
        for (final String text : texts) {
            try {
                chosen.add(Topology.parse(text));
            } catch (final IllegalArgumentException e) {
                throw new IllegalArgumentException("--topologies: " + e.getMessage());
            }
        }
        if (chosen.isEmpty()) {
            throw new IllegalArgumentException("--topologies names no topology: write e.g. 1x2,3x2");
        }
        return new ArrayList<>(chosen);
    }

    /** Parses strategy names ({@code all} for every one); the error lists the names. */
    public static List<Strategy> strategies(final List<String> names) {
        if (isAll(names)) {
            return List.of(Strategy.values());
        }
        final Set<Strategy> chosen = new LinkedHashSet<>();
        for (final String name : names) {
            try {
                chosen.add(Strategy.parse(name.trim()));
            } catch (final IllegalArgumentException e) {
                throw new IllegalArgumentException("--strategies: " + e.getMessage() + " (or all)");
            }
        }
        return new ArrayList<>(chosen);
    }

    private static boolean isAll(final List<String> names) {
        return names.size() == 1 && names.get(0).trim().equalsIgnoreCase("all");
    }
}
