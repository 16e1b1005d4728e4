package io.sluice.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result columns are named as DuckDB names them: by their alias, also where Calcite's rewrites lose it. */
class OutputNamesTest {
    @TempDir
    Path dir;

    @Test
    void anAliasNamesAGroupKeyFromOneSideOfAJoin() {
        try (NullsStore store = new NullsStore(dir)) {
            final SqlPlanner planner = new SqlPlanner(store.catalog(), List.of("t", "u", "v"));
            assertThat(planner.plan("select u.k as uk, count(t.id) as matched from t right join u on t.k = u.k"
                    + " group by u.k").columns()).containsExactly("uk", "matched");
            assertThat(planner.plan("select k as key, count(*) as n from t group by k").columns())
                    .containsExactly("key", "n");
        }
    }
}
