package io.sluice.perf.reference;

import io.sluice.dispatch.DispatchProperty;
import io.sluice.dispatch.cluster.ClusterProperty;
import io.sluice.engine.exec.MemoryProperty;
import io.sluice.engine.filter.RuntimeFilterProperty;
import io.sluice.engine.plan.PlannerProperty;
import io.sluice.shuffle.operator.ShuffleProperty;
import io.sluice.sql.SqlProperty;
import io.sluice.storage.StorageProperty;
import io.sluice.transport.TransportProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The table of every {@code sluice.*} system property: each module lists the properties it reads in an
 * enum beside the class that reads them, and this gathers those enums, one group each.
 */
public final class PropertyReference {
    /**
     * One property.
     *
     * @param key          its name
     * @param defaultValue the value used when it is not set
     * @param meaning      what it sets
     */
    public record Row(String key, String defaultValue, String meaning) {
    }

    /**
     * The properties one class reads.
     *
     * @param title  what they configure
     * @param readBy the class that reads them and its module
     * @param rows   the properties, in the enum's order
     */
    public record Group(String title, String readBy, List<Row> rows) {
    }

    private PropertyReference() {
    }

    /** Every group, from the lowest module up. */
    public static List<Group> groups() {
        return List.of(
                group("Block store", "`BlockFileCache` (storage/store)", StorageProperty.values(),
                        StorageProperty::key, StorageProperty::defaultValue, StorageProperty::meaning),
                group("Shuffle operator", "`ShuffleOptions` (shuffle/core)", ShuffleProperty.values(),
                        ShuffleProperty::key, ShuffleProperty::defaultValue, ShuffleProperty::meaning),
                group("Planner", "`StrategyConfig` (shuffle/engine)", PlannerProperty.values(),
                        PlannerProperty::key, PlannerProperty::defaultValue, PlannerProperty::meaning),
                group("Memory", "`MemoryPool`, `QueryMemory` (shuffle/engine)", MemoryProperty.values(),
                        MemoryProperty::key, MemoryProperty::defaultValue, MemoryProperty::meaning),
                group("Runtime filters", "`RuntimeFilterConfig` (shuffle/engine)", RuntimeFilterProperty.values(),
                        RuntimeFilterProperty::key, RuntimeFilterProperty::defaultValue, RuntimeFilterProperty::meaning),
                group("SQL", "`SqlPlanner` (shuffle/sql)", SqlProperty.values(),
                        SqlProperty::key, SqlProperty::defaultValue, SqlProperty::meaning),
                group("Transport", "`TransportContext` (transport)", TransportProperty.values(),
                        TransportProperty::key, TransportProperty::defaultValue, TransportProperty::meaning),
                group("Exchanges", "`DispatchContext` (dispatch)", DispatchProperty.values(),
                        DispatchProperty::key, DispatchProperty::defaultValue, DispatchProperty::meaning),
                group("Cluster", "`ClusterContext` (dispatch)", ClusterProperty.values(),
                        ClusterProperty::key, ClusterProperty::defaultValue, ClusterProperty::meaning));
    }

    /** Every property of every group. */
    public static List<Row> rows() {
        final List<Row> rows = new ArrayList<>();
        for (final Group group : groups()) {
            rows.addAll(group.rows());
        }
        return rows;
    }

    /** The page: a table per group. */
    public static String markdown() {
        final StringBuilder page = new StringBuilder();
        page.append("# System properties\n\n")
                .append("Every `sluice.*` system property, generated from the enums that list what each module\n")
                .append("reads (`StorageProperty`, `ShuffleProperty`, ...); do not edit it by hand. Regenerate it with\n")
                .append('`').append(ReferencePages.REGENERATE).append("`.\n\n")
                .append("Set one with `-Dname=value`: for `bin/sluice` in `SLUICE_JAVA_OPTS`, for a CN process that\n")
                .append("`sluice cluster up` starts with `--jvm-arg=-Dname=value`. The transport, exchange and cluster\n")
                .append("durations take a unit (`200ms`, `3s`) and their sizes may (`16m`, `512k`); the others take plain\n")
                .append("numbers and words. What to tune and why: [tuning](../tuning.md).\n");
        for (final Group group : groups()) {
            page.append("\n## ").append(group.title()).append("\n\nRead by ").append(group.readBy()).append(".\n\n")
                    .append("| property | default | meaning |\n|---|---|---|\n");
            for (final Row row : group.rows()) {
                page.append("| `").append(row.key()).append("` | ").append(value(row.defaultValue())).append(" | ")
                        .append(cell(row.meaning())).append(" |\n");
            }
        }
        return page.toString();
    }

    /** A default one can type as code; one described in words as text. */
    private static String value(final String text) {
        return text.contains(" ") ? cell(text) : "`" + cell(text) + "`";
    }

    private static String cell(final String text) {
        return text.replace("|", "\\|");
    }

    private static <E> Group group(final String title, final String readBy, final E[] values,
                                   final Function<E, String> key, final Function<E, String> defaultValue,
                                   final Function<E, String> meaning) {
        final List<Row> rows = new ArrayList<>(values.length);
        for (final E value : values) {
            rows.add(new Row(key.apply(value), defaultValue.apply(value), meaning.apply(value)));
        }
        return new Group(title, readBy, List.copyOf(rows));
    }
}
