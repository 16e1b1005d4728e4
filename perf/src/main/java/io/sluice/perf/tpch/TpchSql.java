package io.sluice.perf.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The 22 TPC-H queries as SQL text, from the specification with its validation parameters (one
 * resource per query, {@code io/sluice/perf/tpch/sql/qN.sql}). Q15's view is written as a WITH
 * clause, the specification's variant.
 */
public final class TpchSql {
    /** The number of TPC-H queries. */
    public static final int COUNT = 22;

    private TpchSql() {
    }

    /** The text of TPC-H query {@code n}, 1 to 22. */
    public static String text(final int n) {
        if (n < 1 || n > COUNT) {
            throw new IllegalArgumentException("TPC-H has queries 1 to " + COUNT + ", not " + n);
        }
        final String resource = "sql/q" + n + ".sql";
        try (InputStream in = TpchSql.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the resource " + resource + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** The TPC-H tables the text of query {@code n} names, in {@link TpchTable} order. */
    public static List<String> tables(final int n) {
        final List<String> tables = new ArrayList<>();
        final String text = text(n);
        for (final TpchTable t : TpchTable.values()) {
            if (Pattern.compile("\\b" + t.tableName() + "\\b").matcher(text).find()) {
                tables.add(t.tableName());
            }
        }
        return tables;
    }
}
