package io.sluice.engine.exec;

import io.sluice.engine.filter.FilterKind;
import io.sluice.engine.filter.FilterScope;
import java.util.List;

/**
 * What one runtime filter did on one CN, or summed over a query's CNs ({@link #plus}).
 *
 * @param id            the filter's number within the query, from 0
 * @param build         the build key columns
 * @param probe         the probe scan columns it is applied to
 * @param kinds         the kinds it was made of (empty until it arrived)
 * @param scope         local, global or per bucket
 * @param buildRows     build rows it was made from (on one CN: the rows this CN's build added)
 * @param probeRowsIn   probe rows it was tested on (rows of blocks it skipped not counted)
 * @param probeRowsOut  of those, the rows it passed
 * @param blocksSkipped probe blocks skipped unread because their zonemap lies outside the filter
 * @param waitMillis    longest time a probe scan waited for it
 * @param state         where it stands
 */
public record RuntimeFilterStats(int id, List<String> build, List<String> probe, List<FilterKind> kinds,
                                 FilterScope scope, long buildRows, long probeRowsIn, long probeRowsOut,
                                 long blocksSkipped, long waitMillis, RuntimeFilterState state) {
    public RuntimeFilterStats {
        build = List.copyOf(build);
        probe = List.copyOf(probe);
        kinds = List.copyOf(kinds);
    }

    /**
     * The same filter on two CNs: rows and blocks summed, the longest wait, the kinds of the one
     * that has them, and the state that says most (disabled, then late, applied, dropped, not arrived, pending).
     */
    public RuntimeFilterStats plus(final RuntimeFilterStats o) {
        // Every CN of a local filter holds the whole build; the others each built their own buckets.
        final long rows = scope == FilterScope.LOCAL ? Math.max(buildRows, o.buildRows) : buildRows + o.buildRows;
        return new RuntimeFilterStats(id, build, probe, kinds.isEmpty() ? o.kinds : kinds, scope, rows,
                probeRowsIn + o.probeRowsIn, probeRowsOut + o.probeRowsOut, blocksSkipped + o.blocksSkipped,
                Math.max(waitMillis, o.waitMillis), rank(state) >= rank(o.state) ? state : o.state);
    }

    private static int rank(final RuntimeFilterState s) {
        return switch (s) {
            case DISABLED -> 5;
            case LATE -> 4;
            case APPLIED -> 3;
            case DROPPED -> 2;
            case NOT_ARRIVED -> 1;
            case PENDING -> 0;
        };
    }
}
