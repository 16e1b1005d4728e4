package io.sluice.engine.plan;

import io.sluice.engine.filter.FilterKind;
import io.sluice.engine.filter.FilterScope;
import java.util.List;

/**
 * One runtime filter as the plan has it, for EXPLAIN and the stats: the join that makes it, the scan
 * that applies it, the kinds it may take (the build's size chooses among them when it runs) and its scope.
 *
 * @param id        the filter's number within the query, from 0
 * @param build     the build key columns
 * @param probe     the probe scan's columns, in the build keys' order
 * @param table     the table the probe scan reads
 * @param kinds     the kinds it can be made of
 * @param scope     local, global or per bucket
 * @param appliedAt where it is applied: a scan (before its rows reach any shuffle) or a colocated scan
 */
public record RuntimeFilterPlan(int id, List<String> build, List<String> probe, String table, List<FilterKind> kinds,
                                FilterScope scope, String appliedAt) {
    public RuntimeFilterPlan {
        build = List.copyOf(build);
        probe = List.copyOf(probe);
        kinds = List.copyOf(kinds);
    }

    @Override
    public String toString() {
        final StringBuilder k = new StringBuilder();
        for (final FilterKind kind : kinds) {
            k.append(k.length() == 0 ? "" : ", ").append(kind.label());
        }
        return "RF" + id + " " + build + " -> " + probe + " [" + k + "] " + scope.label() + ", " + appliedAt;
    }
}
