package io.sluice.perf.tpch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The registry of queries {@code sluice query} and the DuckDB comparison know, by name. */
public final class Queries {
    private static final Map<String, Query> BY_NAME = new LinkedHashMap<>();

    static {
        for (final Query q : List.of(new Q01(), new Q03(), new Q04(), new Q05(), new Q06(), new Q09(),
                new Q10(), new Q12(), new Q13(), new Q18(),
                new GrpOrderkey(), new JoinLo(), new JoinLp())) {
            BY_NAME.put(q.name(), q);
        }
    }

    private Queries() {
    }

    /** All queries, TPC-H ones first in number order, then the workloads. */
    public static List<Query> all() {
        return new ArrayList<>(BY_NAME.values());
    }

    /** The TPC-H query with a number ({@code --tpch N}); the error lists the implemented ones. */
    public static Query tpch(final int number) {
        final Query q = BY_NAME.get("q" + number);
        if (q == null) {
            throw new IllegalArgumentException("TPC-H query " + number + " is not implemented: use one of "
                    + names(true) + (number >= 1 && number <= TpchSql.COUNT
                    ? "; the others run from their SQL text with --store" : ""));
        }
        return q;
    }

    /** The workload with a name ({@code --workload NAME}); the error lists the workloads. */
    public static Query workload(final String name) {
        final Query q = name.matches("q\\d+") ? null : BY_NAME.get(name.toLowerCase(Locale.ROOT));
        if (q == null) {
            throw new IllegalArgumentException("unknown workload '" + name + "': use one of " + names(false));
        }
        return q;
    }

    private static List<String> names(final boolean tpch) {
        final List<String> names = new ArrayList<>();
        for (final String n : BY_NAME.keySet()) {
            final boolean isTpch = n.matches("q\\d+");
            if (isTpch == tpch) {
                names.add(tpch ? n.substring(1) : n);
            }
        }
        return names;
    }
}
