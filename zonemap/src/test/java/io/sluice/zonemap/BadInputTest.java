package io.sluice.zonemap;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.format.Schema;
import io.sluice.format.StringKey;
import io.sluice.format.TypeKind;
import io.sluice.format.ZoneMap;
import io.sluice.storage.Store;
import io.sluice.storage.Table;
import io.sluice.storage.TableWriter;
import java.nio.file.Path;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Absent, miscounted or inconsistent zonemaps and unknown columns fail with a message naming the value and the rule. */
class BadInputTest {
    private static final Schema SCHEMA = Schema.parse("k:int64,v:string");
    private static final ZoneMap ROWS_10 = new ZoneMap(0, 9, 0, 10);

    @TempDir
    Path dir;

    @Test
    void absentZoneMapsAreRejected() {
        assertThatThrownBy(() -> TableStats.of(SCHEMA, 2, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no zonemaps (null)")
                .hasMessageContaining("one ZoneMap[] per column");
        assertThatThrownBy(() -> TableStats.of(SCHEMA, 1, new ZoneMap[][] {{ROWS_10}, null}))
                .hasMessageContaining("column 'v'").hasMessageContaining("no zonemaps (null)")
                .hasMessageContaining("one ZoneMap per block");
        assertThatThrownBy(() -> TableStats.of(SCHEMA, 1, new ZoneMap[][] {{ROWS_10}, {}}))
                .hasMessageContaining("column 'v'").hasMessageContaining("empty array");
        assertThatThrownBy(() -> TableStats.of(SCHEMA, 2, new ZoneMap[][] {{ROWS_10, ROWS_10}, {ROWS_10, null}}))
                .hasMessageContaining("column 'v' block 1").hasMessageContaining("null entry");
        assertThatThrownBy(() -> ColumnStats.of("c", TypeKind.INT64, new ZoneMap[0]))
                .hasMessageContaining("column 'c'").hasMessageContaining("empty array");
        assertThatThrownBy(() -> BlockPruner.prune(Predicate.eq("c", 1), TypeKind.INT64, null))
                .hasMessageContaining("column 'c'").hasMessageContaining("no zonemaps (null)");
        assertThatThrownBy(() -> BlockPruner.prune(Predicate.eq("c", 1), TypeKind.INT64, new ZoneMap[0]))
                .hasMessageContaining("column 'c'").hasMessageContaining("empty array");
    }

    @Test
    void zoneMapCountsMustMatchTheBlockCountAndTheSchema() {
        assertThatThrownBy(() -> TableStats.of(SCHEMA, 2, new ZoneMap[][] {{ROWS_10, ROWS_10}, {ROWS_10}}))
                .hasMessageContaining("column 'v' has 1 zonemaps for 2 blocks")
                .hasMessageContaining("exactly one ZoneMap per block");
        assertThatThrownBy(() -> TableStats.of(SCHEMA, 1, new ZoneMap[][] {{ROWS_10, ROWS_10}, {ROWS_10}}))
                .hasMessageContaining("column 'k' has 2 zonemaps for 1 blocks");
        assertThatThrownBy(() -> TableStats.of(SCHEMA, 1, new ZoneMap[][] {{ROWS_10}}))
                .hasMessageContaining("has 2 columns but 1 zonemap arrays");
        assertThatThrownBy(() -> TableStats.of(SCHEMA, -1, new ZoneMap[][] {{}, {}}))
                .hasMessageContaining("block count must not be negative, got -1");
        assertThatThrownBy(() -> TableStats.of(SCHEMA, 0, new ZoneMap[][] {{}, {ROWS_10}}))
                .hasMessageContaining("column 'v' has 1 zonemaps for 0 blocks");
    }

    @Test
    void zoneMapsOfOneBlockMustAgreeOnItsRowCount() {
        assertThatThrownBy(() -> TableStats.of(SCHEMA, 1, new ZoneMap[][] {{ROWS_10}, {new ZoneMap(0, 0, 11, 11)}}))
                .hasMessageContaining("block 0").hasMessageContaining("column 'v'").hasMessageContaining("11 rows")
                .hasMessageContaining("must agree on its row count");
    }

    @Test
    void inconsistentZoneMapsAreRejected() {
        assertThatThrownBy(() -> ColumnStats.of("c", TypeKind.INT64, new ZoneMap[] {ROWS_10, new ZoneMap(5, 4, 0, 2)}))
                .hasMessageContaining("column 'c' block 1").hasMessageContaining("min > max");
        assertThatThrownBy(() -> ColumnStats.of("c", TypeKind.INT32, new ZoneMap[] {new ZoneMap(0, 0, 3, 2)}))
                .hasMessageContaining("column 'c' block 0").hasMessageContaining("nullCount <= rowCount");
        assertThatThrownBy(() -> ColumnStats.of("s", TypeKind.STRING,
                new ZoneMap[] {new ZoneMap(StringKey.of("b"), StringKey.of("a"), 0, 2)}))
                .hasMessageContaining("column 's' block 0").hasMessageContaining("min > max")
                .hasMessageContaining("unsigned");
        // "\u00ff" has a negative key as a signed long; it is still above "a" and must be accepted.
        Assertions.assertThat(ColumnStats.of("s", TypeKind.STRING,
                new ZoneMap[] {new ZoneMap(StringKey.of("a"), StringKey.of("\u00ff"), 0, 2)}).distinctCount())
                .isBetween(2L, 2L);
    }

    @Test
    void unknownColumnsAreNamed() {
        final Table table;
        try (TableWriter writer = Store.create(dir).createTable("t", SCHEMA, null)) {
            writer.column(0).appendLong(1);
            writer.column(1).appendString("x");
            writer.endRow();
            table = writer.finish();
        }
        try (table) {
            final TableStats stats = TableStats.of(table);
            assertThatThrownBy(() -> stats.column("nope"))
                    .hasMessageContaining("no column 'nope'").hasMessageContaining("[k, v]");
            assertThatThrownBy(() -> stats.column(2)).hasMessageContaining("column 2 of a table with 2 columns");
            assertThatThrownBy(() -> BlockPruner.prune(Predicate.lt("nope", 3), table))
                    .hasMessageContaining("no column 'nope'").hasMessageContaining("[k, v]");
        }
    }

    @Test
    void malformedPredicatesAreRejected() {
        assertThatThrownBy(() -> Predicate.eq(null, 1)).hasMessageContaining("needs a column name, got null");
        assertThatThrownBy(() -> Predicate.between(" ", 1, 2)).hasMessageContaining("needs a column name, got ' '");
        assertThatThrownBy(() -> new Predicate.In("c", null)).hasMessageContaining("IN on column 'c' has a null key list");
        assertThatThrownBy(() -> new Predicate.Comparison("c", null, 1)).hasMessageContaining("column 'c' has no operator");
    }
}
