package io.sluice.perf.bench;

import io.sluice.engine.plan.Plan;
import io.sluice.perf.duckdb.DuckDbText;
import io.sluice.perf.tpcds.TpcdsQueryFolder;
import io.sluice.perf.tpcds.TpcdsTable;
import io.sluice.perf.tpch.Query;
import io.sluice.sql.SqlPlanner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A TPC-DS query as {@code sluice query-bench --benchmark tpcds} and {@code sluice bench --benchmark
 * tpcds} time it: its text from a folder ({@link TpcdsQueryFolder}), handed to Sluice's SQL planner on
 * every run as TPC-H's texts are (the planner reads Spark's backquoted names), and the same text, its
 * backquoted names and the words DuckDB reserves double-quoted ({@link DuckDbText}), run by DuckDB.
 * Named {@code q01} ... {@code q99}, {@code q14a}.
 */
public final class TpcdsTextQuery implements TextQuery {
    private final String name;
    private final String text;
    private final List<String> tables;
    private final SqlPlanner planner;

    private TpcdsTextQuery(final String name, final String text, final List<String> tables,
                           final SqlPlanner planner) {
        this.name = name;
        this.text = text;
        this.tables = tables;
        this.planner = planner;
    }

    /**
     * The queries of a folder, all of them for {@code all}, else those named ({@code q1}, {@code q01},
     * {@code 1}, {@code 14a}); an unknown name is an error that lists the folder's names.
     */
    public static List<Query> load(final Path folder, final List<String> names) {
        final Map<String, TpcdsTextQuery> known = new LinkedHashMap<>();
        for (final Map.Entry<String, String> e : TpcdsQueryFolder.load(folder).entrySet()) {
            known.put("q" + e.getKey(), new TpcdsTextQuery("q" + e.getKey(), e.getValue(), tablesOf(e.getValue()),
                    null));
        }
        if (names.size() == 1 && names.get(0).trim().equalsIgnoreCase("all")) {
            return new ArrayList<>(known.values());
        }
        final Map<String, Query> chosen = new LinkedHashMap<>();
        final List<String> unknown = new ArrayList<>();
        for (final String n : names) {
            final String key = canonical(n);
            final TpcdsTextQuery q = known.get(key);
            if (q == null) {
                unknown.add("'" + n + "'");
            } else {
                chosen.put(key, q);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown TPC-DS quer" + (unknown.size() > 1 ? "ies " : "y ")
                    + String.join(", ", unknown) + " in --queries: " + folder + " holds "
                    + String.join(",", known.keySet()) + " (or use all)");
        }
        return new ArrayList<>(chosen.values());
    }

    /** {@code q1}, {@code 01}, {@code Q1} and {@code 1} as {@code q01}; {@code 14a} as {@code q14a}. */
    static String canonical(final String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.startsWith("q")) {
            n = n.substring(1);
        }
        int digits = 0;
        while (digits < n.length() && Character.isDigit(n.charAt(digits))) {
            digits++;
        }
        return digits == 1 ? "q0" + n : "q" + n;
    }

    /** The TPC-DS tables a text names, in the schema's order. */
    private static List<String> tablesOf(final String text) {
        final String lower = text.toLowerCase(Locale.ROOT);
        final List<String> out = new ArrayList<>();
        for (final TpcdsTable t : TpcdsTable.values()) {
            if (Pattern.compile("\\b" + t.tableName() + "\\b").matcher(lower).find()) {
                out.add(t.tableName());
            }
        }
        return out;
    }

    @Override
    public TpcdsTextQuery over(final SqlPlanner sqlPlanner) {
        return new TpcdsTextQuery(name, text, tables, sqlPlanner);
    }

    @Override
    public String name() {
        return name;
    }

    /** The text DuckDB runs: Sluice's, with backquoted names and the words DuckDB reserves double-quoted. */
    @Override
    public String sql() {
        return DuckDbText.of(text);
    }

    @Override
    public List<String> tables() {
        return tables;
    }

    @Override
    public List<String> columns() {
        if (planner == null) {
            throw new IllegalStateException(name + " is planned from its text over the bench's store: bind it with"
                    + " TpchTextQuery.bind(queries, planner) first");
        }
        return planner.plan(text).columns();
    }

    /**
     * Plans the text now.
     *
     * @throws IllegalStateException when the query was not bound to a store with {@link #over}
     */
    @Override
    public Plan plan() {
        if (planner == null) {
            throw new IllegalStateException(name + " is planned from its text over the bench's store: bind it with"
                    + " TpchTextQuery.bind(queries, planner) first");
        }
        return planner.plan(text).plan();
    }
}
